/**
 * The regular-expression engine of every pattern a tenant or a publisher writes (a JSON Schema `pattern`
 * or `patternProperties` name in a tool's `parameters`, a connector's `config_schema`, an analysis
 * schema, an MCP server's `inputSchema`): RE2 semantics through `re2js` (a pure-JavaScript port of RE2),
 * whose matching time is linear in the length of the text, so no pattern and no value can make a match
 * take exponential time (a backtracking engine takes 2^n steps for `^(a+)+$` against n `a`s and a `!`,
 * freezing the process). Ajv is given it as its `code.regExp` (Ajv's "ReDoS" security advice, its
 * `RegExpEngine` option).
 *
 * A pattern is read as ECMA-262 with the `u` flag (what JSON Schema's `pattern` means, and what Ajv
 * passes) and must also be one RE2 can run:
 * - a syntax error of ECMA-262 is refused with the JavaScript engine's message (parsing only: a
 *   `RegExp` is built to read the syntax and never run);
 * - backreferences (`\1`…`\9`, `\k<name>`) and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) are refused:
 *   they have no linear-time algorithm, and there is never a fallback to the backtracking engine;
 * - the rest is translated to RE2's syntax (`re2js` `translateRegExp`: `\uXXXX`, named groups) and
 *   compiled; what RE2 refuses (a repeat count over 1,000, an unknown `\p{…}` class) is refused.
 * Differences left (RE2's, documented in the README): `\s` and `\S` are ASCII white space only; `.`
 * stops only at `\n`; `\b` is ASCII.
 */
import { RE2JS } from 're2js';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types';

/** A pattern the linear engine refuses: the pattern as written and why (a sentence without a full stop). */
export class UnsupportedPatternError extends Error {
  constructor(
    public readonly pattern: string,
    public readonly reason: string,
  ) {
    super(`Unsupported regular expression /${pattern}/: ${reason}`);
    this.name = 'UnsupportedPatternError';
  }
}

/**
 * Why RE2 cannot run `pattern` for a reason of its own kind (a backreference, a lookaround), or null.
 * Reads the pattern as ECMA-262 `u` mode does (already known to parse there): an escape takes the next
 * character; inside `[…]` nothing is a group; in `u` mode `\k` and `\1`–`\9` are only ever backreferences.
 */
function nonLinearFeature(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (next === 'k' || (next >= '1' && next <= '9'))
        return `backreferences (\\${next}…) are not supported; patterns run on a linear-time engine (RE2)`;
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') inClass = true;
    else if (ch === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2, i + 4);
      if (rest.startsWith('=') || rest.startsWith('!') || rest === '<=' || rest === '<!')
        return `lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported; patterns run on a linear-time engine (RE2)`;
    }
  }
  return null;
}

/** Compiled patterns, by flags and source (at most `MAX_CACHED`, oldest dropped): Ajv asks once per use. */
const compiled = new Map<string, RE2JS>();
const MAX_CACHED = 2000;

/**
 * Compiles `pattern` for linear-time matching (see the header). `flags` is Ajv's: `"u"` or `""` (both read
 * as Unicode: RE2 matches code points).
 * @returns an object whose `test(text)` says whether the pattern matches somewhere in `text` (as
 *   `RegExp.prototype.test` does)
 * @throws UnsupportedPatternError when the pattern is not valid ECMA-262 or RE2 cannot run it
 */
export function linearRegExp(pattern: string, flags = 'u'): RegExpLike {
  const key = `${flags}/${pattern}`;
  let re = compiled.get(key);
  if (!re) {
    try {
      new RegExp(pattern, 'u'); // syntax only: a RegExp object is never run here
    } catch (err) {
      throw new UnsupportedPatternError(pattern, (err as Error).message.replace(/^Invalid regular expression: /, ''));
    }
    const feature = nonLinearFeature(pattern);
    if (feature) throw new UnsupportedPatternError(pattern, feature);
    try {
      re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (err) {
      throw new UnsupportedPatternError(pattern, `RE2 cannot run it (${(err as Error).message})`);
    }
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, re);
  }
  const engine = re;
  // Ajv keys the compiled patterns of an instance by `toString()`: it must name the pattern and flags.
  const like: RegExpLike & { toString(): string } = {
    test: (text: string) => engine.test(text),
    toString: () => `linear:${JSON.stringify([flags, pattern])}`,
  };
  return like;
}

/**
 * `linearRegExp` as Ajv's `code.regExp` option. `code` is how Ajv's standalone code (never generated
 * here) would call it; it only has to be a unique label.
 */
export const linearRegExpEngine: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => linearRegExp(pattern, flags),
  { code: 'require("re2js-linear-regexp").linearRegExp' },
);
