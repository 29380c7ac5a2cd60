/**
 * PII redaction benchmark (not a timed test): runs src/redaction.ts over the
 * labelled set bench/redaction-set.jsonl and prints, per kind (`card`, `ssn`, `email`, `phone`), the
 * precision and recall by count (a line expecting 1 card and finding 2 has 1 true and 1 false positive),
 * then the false positives of each negative tag (order numbers, prices, tracking numbers…) with the lines
 * that caused them, and the goals of the issue: recall ≥ 0.98 for cards and emails, no false positive on
 * the order numbers and prices. Exits 1 when a goal is missed.
 *
 *   npm run bench:redaction
 *   node dist/bench/redaction.js [path/to/set.jsonl]
 */
import fs from 'node:fs';
import path from 'node:path';
import { findPii, PII_KINDS, type PiiKind } from '../src/redaction';

/** One labelled line: the text, the parties' own numbers, and how many of each kind it holds. */
export interface LabelledLine {
  text: string;
  keep?: string[];
  /** What the line exercises (`card`, `order_number`, `price`…): negatives are grouped by it. */
  tag?: string;
  expected: Record<PiiKind, number>;
}

export interface KindScore {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
}

export interface SetScore {
  lines: number;
  kinds: Record<PiiKind, KindScore>;
  /** Per tag: lines, and the lines where something was found beyond what was expected. */
  tags: Record<string, { lines: number; falsePositives: { text: string; found: string[] }[] }>;
  /** Lines where an expected finding was missed. */
  misses: { text: string; missed: string[] }[];
}

/** The set, one JSON object per line (blank lines skipped). */
export function readSet(file = defaultSetPath()): LabelledLine[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LabelledLine);
}

/** bench/redaction-set.jsonl, from the source tree or from dist/bench. */
export function defaultSetPath(): string {
  const here = path.join(__dirname, 'redaction-set.jsonl');
  return fs.existsSync(here) ? here : path.join(__dirname, '..', '..', 'bench', 'redaction-set.jsonl');
}

/** Scores the redactor on `set` (see the module comment). */
export function scoreSet(set: LabelledLine[]): SetScore {
  const counts = Object.fromEntries(PII_KINDS.map((k) => [k, { tp: 0, fp: 0, fn: 0 }])) as Record<
    PiiKind,
    { tp: number; fp: number; fn: number }
  >;
  const tags: SetScore['tags'] = {};
  const misses: SetScore['misses'] = [];
  for (const line of set) {
    const spans = findPii(line.text, { keep: line.keep });
    const tag = (tags[line.tag ?? 'untagged'] ??= { lines: 0, falsePositives: [] });
    tag.lines++;
    const extra: string[] = [];
    const missed: string[] = [];
    for (const kind of PII_KINDS) {
      const found = spans.filter((s) => s.kind === kind);
      const expected = line.expected[kind] ?? 0;
      counts[kind].tp += Math.min(found.length, expected);
      counts[kind].fp += Math.max(0, found.length - expected);
      counts[kind].fn += Math.max(0, expected - found.length);
      if (found.length > expected)
        extra.push(...found.slice(expected).map((s) => `${kind}: ${line.text.slice(s.start, s.end)}`));
      if (found.length < expected) missed.push(`${kind} (${expected - found.length})`);
    }
    if (extra.length) tag.falsePositives.push({ text: line.text, found: extra });
    if (missed.length) misses.push({ text: line.text, missed });
  }
  const kinds = Object.fromEntries(
    PII_KINDS.map((k) => {
      const { tp, fp, fn } = counts[k];
      return [k, { tp, fp, fn, precision: tp + fp ? tp / (tp + fp) : 1, recall: tp + fn ? tp / (tp + fn) : 1 }];
    }),
  ) as Record<PiiKind, KindScore>;
  return { lines: set.length, kinds, tags, misses };
}

/** The goals on a score: recall ≥ 0.98 for cards and emails; no false positive on order numbers and prices. */
export function goalsMissed(score: SetScore): string[] {
  const missed: string[] = [];
  for (const k of ['card', 'email'] as const)
    if (score.kinds[k].recall < 0.98) missed.push(`${k} recall ${score.kinds[k].recall.toFixed(3)} < 0.98`);
  for (const t of ['order_number', 'price'])
    if (score.tags[t]?.falsePositives.length)
      missed.push(`${score.tags[t].falsePositives.length} false positive(s) on ${t}`);
  return missed;
}

function main(): void {
  const file = process.argv[2] ?? defaultSetPath();
  const set = readSet(file);
  const started = process.hrtime.bigint();
  const score = scoreSet(set);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`PII redaction on ${path.relative(process.cwd(), file)}: ${score.lines} lines, ${ms.toFixed(0)} ms`);
  console.log('kind    expected  found   tp  fp  fn  precision  recall');
  for (const k of PII_KINDS) {
    const s = score.kinds[k];
    console.log(
      `${k.padEnd(7)} ${String(s.tp + s.fn).padStart(8)} ${String(s.tp + s.fp).padStart(6)} ${String(s.tp).padStart(4)} ${String(s.fp).padStart(3)} ${String(s.fn).padStart(3)}  ${s.precision.toFixed(3).padStart(9)}  ${s.recall.toFixed(3).padStart(6)}`,
    );
  }
  console.log('\nfalse positives by tag (lines with something found beyond the labels):');
  for (const [tag, t] of Object.entries(score.tags).sort())
    console.log(`  ${tag.padEnd(16)} ${t.falsePositives.length} of ${t.lines} lines`);
  for (const [tag, t] of Object.entries(score.tags))
    for (const fp of t.falsePositives) console.log(`  FP [${tag}] ${JSON.stringify(fp.text)} → ${fp.found.join(', ')}`);
  for (const m of score.misses) console.log(`  MISS ${JSON.stringify(m.text)} → ${m.missed.join(', ')}`);
  const missed = goalsMissed(score);
  console.log(
    missed.length
      ? `\ngoals missed: ${missed.join('; ')}`
      : '\ngoals met: recall ≥ 0.98 for cards and emails, no false positive on order numbers and prices',
  );
  process.exitCode = missed.length ? 1 : 0;
}

if (require.main === module) main();
