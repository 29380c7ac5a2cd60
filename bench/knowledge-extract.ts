/**
 * How long a large file takes to extract (src/services/knowledge-extract.ts), and whether the calling
 * process stays responsive meanwhile (extraction runs in a worker thread): for each file, the wall time
 * of `extractDocument` and the largest event-loop delay of this process during it (`monitorEventLoopDelay`).
 * Files: a 20 MB PDF (200 pages of text, padded by an image), a text-heavy PDF past the 500,000-character
 * cap (stopped early, `text_too_long`), and an 8 MB HTML page of 260,000 elements.
 *
 *   node dist/bench/knowledge-extract.js      (after `npx tsc -p .`; needs no services)
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildLargePdf, buildPdf } from '../test/support/knowledge-fixtures';
import { extractDocument, KnowledgeSourceError } from '../src/services/knowledge-extract';

async function measure(name: string, bytes: Buffer, filename: string): Promise<void> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  let outcome: string;
  try {
    const doc = await extractDocument({ bytes, filename, timeoutMs: 120_000 });
    const characters = doc.sections.reduce((sum, s) => sum + s.text.length, 0);
    outcome = `${doc.sections.length} sections, ${characters} characters`;
  } catch (err) {
    outcome = err instanceof KnowledgeSourceError ? `failed: ${err.code}` : `error: ${String(err)}`;
  }
  const ms = performance.now() - started;
  delay.disable();
  console.log(
    `${name}: ${(bytes.length / 1024 / 1024).toFixed(1)} MB, ${ms.toFixed(0)} ms, ${outcome}; ` +
      `event-loop delay max ${(delay.max / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms`,
  );
}

async function main(): Promise<void> {
  // The first extraction also starts the thread and loads PDF.js: measured apart.
  await measure('warm-up (small PDF)', await buildPdf([[{ heading: 'Hello', paragraphs: ['World.'] }]]), 'a.pdf');
  await measure('PDF, 200 pages of text + image', await buildLargePdf(20 * 1024 * 1024, 200), 'big.pdf');
  const sections = Array.from({ length: 900 }, (_, p) => ({
    heading: `Chapter ${p + 1}`,
    paragraphs: Array.from(
      { length: 8 },
      (_, i) => `Paragraph ${i} of chapter ${p + 1}: ${'shelves lamps carpets doors '.repeat(4)}`,
    ),
  }));
  await measure('PDF, text past the cap', await buildPdf(sections.map((s) => [s])), 'long.pdf');
  // A page of real markup: 20,000 sections, each a heading, a paragraph and a list (about 8 MB).
  const parts = Array.from(
    { length: 20_000 },
    (_, p) =>
      `<section><h2>Part ${p}</h2><p>Part ${p} says ${'word '.repeat(25)}</p><ul>${'<li><a href="#">link</a></li>'.repeat(6)}</ul></section>`,
  );
  const html = Buffer.from(
    `<!doctype html><html><head><title>Big page</title></head><body>${parts.join('')}</body></html>`,
  );
  await measure('HTML page', html, 'big.html');
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
