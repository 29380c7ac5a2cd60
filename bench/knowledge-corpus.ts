/**
 * The corpus of the retrieval benchmark (bench/knowledge-retrieval.ts): labelled documents as real files
 * of every type knowledge takes (PDF, DOCX, HTML, Markdown, TXT, CSV, built by
 * test/support/knowledge-fixtures.ts), their questions, and topical distractor documents. Everything is
 * drawn from a seeded PRNG: every run builds the same corpus.
 *
 * A labelled document is about a made-up entity and a pair of topics (two synonym groups of the fake
 * embedding model, test/support/fake-embeddings.ts), written with one word of each group; no two labelled
 * documents share a pair. Its file has an introduction, the section (or PDF page, or CSV rows) about the
 * pair, and a closing section; the introduction and closing are common words only. Two questions each:
 * - `paraphrase`: the two topics asked with other words of their groups, none of the document's own;
 * - `exact`: the entity's name (and in some the document's own word for a topic).
 *
 * Distractor documents are topical, as real knowledge is: each is about three synonym groups of its own
 * (one word in eight is of them; the other words are of no group), and no two of those form a labelled
 * pair, so no distractor chunk is about both topics of a labelled document: each question has one right document by construction (a
 * distractor that were about both would be a right answer the labels call wrong).
 */
import { stem, SYNONYMS } from '../test/support/fake-embeddings';
import { buildCsv, buildDocx, buildHtml, buildMarkdown, buildPdf, buildTxt } from '../test/support/knowledge-fixtures';
import type { FixtureSection } from '../test/support/knowledge-fixtures';
import { DISTRACTOR_WORDS } from './knowledge-set';

/** A seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Made-up words from `syllables`, `count` of them, all distinct. */
function madeUpWords(syllables: string[], count: number, offset: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    let w = '';
    let n = i + offset;
    do {
      w += syllables[n % syllables.length];
      n = Math.floor(n / syllables.length);
    } while (n > 0);
    return w;
  });
}

const DISTRACTOR_NAMES = madeUpWords(
  ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'pe', 'da', 'gri', 'fon'],
  20_000,
  12,
);
/** Entity names: other syllables, so no distractor word is an entity's name. */
const ENTITY_NAMES = madeUpWords(['zu', 'qa', 'xe', 'jo', 'wy', 'fib', 'hux', 'oz'], 5_000, 64).map(
  (w) => w[0].toUpperCase() + w.slice(1),
);
/** Synonym groups with at least three one-word members: a document uses one, a paraphrase another. */
const GROUPS = SYNONYMS.map((g) => g.filter((w) => !w.includes(' ') && !w.includes('-'))).filter((g) => g.length >= 3);

/** The file types of labelled documents, in turn. */
export const FILE_TYPES_BENCHED = ['pdf', 'docx', 'html', 'markdown', 'txt', 'csv'] as const;
export type BenchFileType = (typeof FILE_TYPES_BENCHED)[number];
const EXTENSION: Record<BenchFileType, string> = {
  pdf: 'pdf',
  docx: 'docx',
  html: 'html',
  markdown: 'md',
  txt: 'txt',
  csv: 'csv',
};

/** A labelled document: its file (posted without a title, as a customer's upload) and its type. */
export interface LabelledFile {
  key: string;
  type: BenchFileType;
  filename: string;
  bytes: Buffer;
}
/** A question and the one document that answers it. */
export interface Question {
  query: string;
  relevant: string;
  kind: 'paraphrase' | 'exact';
  type: BenchFileType;
}

/** Synonym-group members, by stem. */
const GROUP_STEMS = new Set(SYNONYMS.flat().map(stem));
/** The distractor words (bench/knowledge-set.ts) that are of no synonym group: words about no topic. */
const COMMON_WORDS = DISTRACTOR_WORDS.filter((w) => !GROUP_STEMS.has(stem(w)));

const pick = <T>(random: () => number, list: T[]): T => list[Math.floor(random() * list.length)];
const pairKey = (a: number, b: number) => `${Math.min(a, b)}:${Math.max(a, b)}`;

/** `words` common words of no synonym group: what a file says around its topic. */
function commonWords(random: () => number, words: number): string {
  return Array.from({ length: words }, () => pick(random, COMMON_WORDS)).join(' ');
}

/** What a labelled document says, before it is put in a file of its type. */
interface Content {
  entity: string;
  heading: string;
  intro: string[];
  facts: string[];
  closing: string[];
  rows: string[][];
}

/** The file of `type` holding `c`. */
async function fileOf(type: BenchFileType, c: Content): Promise<Buffer> {
  const sections: FixtureSection[] = [
    { heading: `About ${c.entity}`, paragraphs: c.intro },
    { heading: c.heading, paragraphs: c.facts },
    { heading: 'Contact', paragraphs: c.closing },
  ];
  const title = `${c.entity} handbook`;
  switch (type) {
    case 'pdf':
      return buildPdf(
        sections.map((s) => [s]),
        title,
      );
    case 'docx':
      return buildDocx([{ heading: title, paragraphs: [] }, ...sections].filter((s) => s.paragraphs.length));
    case 'html':
      return buildHtml(title, sections);
    case 'markdown':
      return buildMarkdown(title, sections);
    case 'txt':
      return buildTxt([title, ...sections.flatMap((s) => [s.heading, ...s.paragraphs])]);
    case 'csv':
      return buildCsv(['unit', 'topic', 'answer', 'days'], c.rows);
  }
}

/**
 * The labelled documents (`count`, the types in turn) and two questions each (see the module docstring).
 * @returns the files, the questions, and the labelled pairs (synonym group indexes, `a:b`, a < b)
 */
export async function labelledSet(
  count: number,
): Promise<{ files: LabelledFile[]; questions: Question[]; pairs: Set<string> }> {
  const random = prng(58);
  const pairs = new Set<string>();
  const files: LabelledFile[] = [];
  const questions: Question[] = [];
  while (files.length < count) {
    const a = Math.floor(random() * GROUPS.length);
    const b = Math.floor(random() * GROUPS.length);
    if (a === b || pairs.has(pairKey(a, b))) continue;
    pairs.add(pairKey(a, b));
    const [ga, gb] = [GROUPS[a], GROUPS[b]];
    const [wa, wb] = [pick(random, ga), pick(random, gb)];
    const entity = ENTITY_NAMES[files.length];
    const n = 2 + Math.floor(random() * 28);
    const type = FILE_TYPES_BENCHED[files.length % FILE_TYPES_BENCHED.length];
    const key = `labelled-${files.length}`;
    const facts = [
      `${entity} handles ${wa} for ${wb} within ${n} days. When a customer asks about ${wa} and ${wb}, the ${entity} team answers by the next morning.`,
      `Every ${wb} case at ${entity} is written down, and ${wa} questions go first. ${commonWords(random, 10)}.`,
    ];
    const content: Content = {
      entity,
      heading: `${entity} ${wa}`,
      intro: [`${entity} is one of our units. ${commonWords(random, 30)}.`, `${commonWords(random, 25)}.`],
      facts,
      closing: [`Write to the ${entity} desk. ${commonWords(random, 20)}.`],
      rows: [
        [entity, wa, `${entity} handles ${wa} for ${wb} within ${n} days.`, String(n)],
        [
          entity,
          wb,
          `When a customer asks about ${wa} and ${wb}, the ${entity} team answers by the next morning.`,
          '1',
        ],
        [entity, wa, `Every ${wb} case at ${entity} is written down, and ${wa} questions go first.`, ''],
        ...Array.from({ length: 6 }, () => [
          pick(random, DISTRACTOR_NAMES),
          pick(random, COMMON_WORDS),
          `${commonWords(random, 12)}.`,
          String(1 + Math.floor(random() * 30)),
        ]),
      ],
    };
    const stem = `${entity.toLowerCase()}-${wa}`;
    files.push({ key, type, filename: `${stem}.${EXTENSION[type]}`, bytes: await fileOf(type, content) });
    const [qa, qb] = [
      pick(
        random,
        ga.filter((w) => w !== wa),
      ),
      pick(
        random,
        gb.filter((w) => w !== wb),
      ),
    ];
    const paraphrase = pick(random, [
      `How does ${qa} work for ${qb}?`,
      `What happens with ${qa} and ${qb}?`,
      `Who should I talk to about ${qb} ${qa}?`,
      `Is there a rule on ${qa} when it comes to ${qb}?`,
    ]);
    questions.push({ query: paraphrase, relevant: key, kind: 'paraphrase', type });
    const exact = pick(random, [
      `${entity} ${wa}?`,
      `What does ${entity} say about ${wa}?`,
      `How long does ${entity} take?`,
      `Tell me about ${entity}.`,
    ]);
    questions.push({ query: exact, relevant: key, kind: 'exact', type });
  }
  return { files, questions, pairs };
}

/**
 * A distractor document of `paragraphs` paragraphs of random sentences about three synonym groups of its
 * own, no two of which are a labelled pair (`pairs`): one word in eight is of those groups, the others
 * common English words of no group, and made-up names.
 */
export function distractor(random: () => number, paragraphs: number, pairs: Set<string>): string {
  let home: number[];
  do home = [0, 1, 2].map(() => Math.floor(random() * GROUPS.length));
  while (home.some((a, i) => home.some((b, j) => i < j && (a === b || pairs.has(pairKey(a, b))))));
  const topicWords = home.flatMap((g) => GROUPS[g]);
  const word = () =>
    random() < 0.125
      ? pick(random, topicWords)
      : random() < 0.45
        ? DISTRACTOR_NAMES[Math.floor(DISTRACTOR_NAMES.length * random() ** 3)]
        : COMMON_WORDS[Math.floor(COMMON_WORDS.length * random() ** 2)];
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(random() * 10) }, word);
    return `${words[0][0].toUpperCase()}${words.join(' ').slice(1)}.`;
  };
  return Array.from({ length: paragraphs }, () =>
    Array.from({ length: 4 + Math.floor(random() * 4) }, sentence).join(' '),
  ).join('\n\n');
}
