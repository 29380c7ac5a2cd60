/**
 * The parsers of src/services/knowledge-extract.ts, run inside its extraction thread
 * (src/services/knowledge-extract-worker.ts): a file's bytes → its title and sections, or a
 * `KnowledgeSourceError` saying what is wrong with it. PDF.js for PDFs, `yauzl` then `mammoth` for DOCX,
 * `@mozilla/readability` over `linkedom` for HTML, and the Markdown, TXT and CSV sections of
 * knowledge-extract.ts.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import mammoth from 'mammoth';
import yauzl from 'yauzl';
import {
  csvSections,
  decodeText,
  detectFileType,
  FILE_FAILURES,
  FILE_LIMITS,
  KnowledgeSourceError,
  markdownSections,
  type ExtractedDocument,
  type ExtractedSection,
} from './knowledge-extract';

/** `import()` kept as is by the CommonJS build (PDF.js ships only ES modules). */
const importModule = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

// ---------------------------------------------------------------------------------------------------
// PDF

/** The parts of PDF.js used here. */
interface PdfJs {
  getDocument(src: Record<string, unknown>): { promise: Promise<PdfDocument> };
}
interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<{
    getTextContent(): Promise<{ items: { str?: string; transform?: number[]; hasEOL?: boolean }[] }>;
    cleanup(): void;
  }>;
  getMetadata(): Promise<{ info?: { Title?: unknown } }>;
  destroy(): Promise<void>;
}
let pdfjs: Promise<PdfJs> | null = null;

interface PdfLine {
  text: string;
  /** Font size (points) of the line's largest glyphs. */
  size: number;
  y: number;
}

/** Lines of a page's text items: a new line at an end-of-line mark or where the baseline moves. */
function pdfLines(items: { str?: string; transform?: number[]; hasEOL?: boolean }[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let current: PdfLine | null = null;
  const close = () => {
    if (current && current.text.trim()) lines.push({ ...current, text: current.text.replace(/\s+/g, ' ').trim() });
    current = null;
  };
  for (const item of items) {
    const t = item.transform ?? [0, 0, 0, 0, 0, 0];
    const size = Math.round(Math.hypot(t[2], t[3]) * 10) / 10;
    const y = t[5];
    if (current && Math.abs((current as PdfLine).y - y) > Math.max(size, 1) * 0.5) close();
    const str = item.str ?? '';
    current ??= { text: '', size: 0, y };
    current.text += str;
    if (str.trim()) current.size = Math.max(current.size, size);
    if (item.hasEOL) close();
  }
  close();
  return lines;
}

/**
 * PDF: the text of each page (PDF.js `getTextContent`), lines in a font at least 15% larger than the
 * body's (the size most characters are set in) and at most 200 characters taken as headings. A section
 * per heading per page: a section running over a page break is two, with the same heading.
 */
async function pdfDocument(bytes: Buffer): Promise<ExtractedDocument> {
  const lib = await (pdfjs ??= importModule('pdfjs-dist/legacy/build/pdf.mjs') as Promise<PdfJs>);
  let pdf: PdfDocument;
  try {
    pdf = await lib.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
  } catch (err) {
    if ((err as Error).name === 'PasswordException')
      throw new KnowledgeSourceError('pdf_encrypted', `${FILE_FAILURES.pdf_encrypted} Upload it without one.`);
    throw new KnowledgeSourceError('file_corrupt', `The PDF could not be read: ${(err as Error).message}`);
  }
  try {
    const pages: PdfLine[][] = [];
    let characters = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const lines = pdfLines((await page.getTextContent()).items);
      page.cleanup();
      characters += lines.reduce((sum, l) => sum + l.text.length + 1, 0);
      if (characters > FILE_LIMITS.maxCharacters)
        throw new KnowledgeSourceError('text_too_long', FILE_FAILURES.text_too_long);
      pages.push(lines);
    }
    const bySize = new Map<number, number>();
    for (const l of pages.flat()) bySize.set(l.size, (bySize.get(l.size) ?? 0) + l.text.length);
    const body = [...bySize].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
    const isHeading = (l: PdfLine) =>
      body > 0 && l.size >= body * 1.15 && l.text.length <= 200 && /\p{L}/u.test(l.text);
    const sections: ExtractedSection[] = [];
    let heading: string | null = null;
    pages.forEach((lines, i) => {
      let text: string[] = [];
      let previous: PdfLine | null = null;
      const flush = () => {
        if (text.length) sections.push({ heading, text: text.join('\n'), page: i + 1 });
        text = [];
      };
      for (const l of lines) {
        if (isHeading(l)) {
          flush();
          heading = previous && isHeading(previous) && text.length === 0 ? `${heading} ${l.text}` : l.text;
        } else {
          // A gap of more than 1.8 lines starts a paragraph.
          if (previous && !isHeading(previous) && previous.y - l.y > l.size * 1.8) text.push('');
          text.push(l.text);
        }
        previous = l;
      }
      flush();
    });
    const info = (await pdf.getMetadata().catch(() => ({ info: undefined }))).info;
    const title = typeof info?.Title === 'string' && info.Title.trim() ? info.Title.trim() : null;
    return { title: title ?? sections.find((s) => s.heading)?.heading ?? null, sections };
  } catch (err) {
    if (err instanceof KnowledgeSourceError) throw err;
    throw new KnowledgeSourceError('file_corrupt', `The PDF could not be read: ${(err as Error).message}`);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------------
// DOCX

/**
 * Checks a DOCX's zip before `mammoth` (whose zip library, JSZip, inflates entries whole) opens it: at
 * most `FILE_LIMITS.maxZipEntries` entries whose declared sizes add up to at most
 * `FILE_LIMITS.maxUncompressedBytes`, then every entry inflated by `yauzl` (which stops an entry as soon
 * as it inflates past its declared size) and counted against the same cap.
 * @throws KnowledgeSourceError `file_too_large_uncompressed`, or `file_corrupt` for a zip that is not one
 */
async function checkZip(bytes: Buffer): Promise<void> {
  const tooLarge = () =>
    new KnowledgeSourceError('file_too_large_uncompressed', FILE_FAILURES.file_too_large_uncompressed);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch (err) {
    throw new KnowledgeSourceError('file_corrupt', `The DOCX is not a readable zip file: ${(err as Error).message}`);
  }
  try {
    if (zip.entryCount > FILE_LIMITS.maxZipEntries) throw tooLarge();
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      declared += entry.uncompressedSize;
      if (declared > FILE_LIMITS.maxUncompressedBytes) throw tooLarge();
      entries.push(entry);
    }
    let inflated = 0;
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      const stream = await zip.openReadStreamPromise(entry);
      try {
        for await (const chunk of stream) {
          inflated += (chunk as Buffer).length;
          if (inflated > FILE_LIMITS.maxUncompressedBytes) throw tooLarge();
        }
      } finally {
        stream.destroy();
      }
    }
  } catch (err) {
    if (err instanceof KnowledgeSourceError) throw err;
    // yauzl: "too many bytes in the stream" when an entry inflates past the size it declares.
    if (/too many bytes/i.test((err as Error).message)) throw tooLarge();
    throw new KnowledgeSourceError('file_corrupt', `The DOCX's zip is damaged: ${(err as Error).message}`);
  } finally {
    zip.close();
  }
}

/** DOCX: checked (`checkZip`), converted to HTML by `mammoth` (Word's heading styles become h1–h6), images left out. */
async function docxDocument(bytes: Buffer): Promise<ExtractedDocument> {
  await checkZip(bytes);
  let html: string;
  try {
    html = (
      await mammoth.convertToHtml(
        { buffer: bytes },
        { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
      )
    ).value;
  } catch (err) {
    throw new KnowledgeSourceError('file_corrupt', `The DOCX could not be read: ${(err as Error).message}`);
  }
  const doc = htmlDocument(`<!doctype html><html><body>${html}</body></html>`, false);
  return { title: doc.sections.find((s) => s.heading)?.heading ?? null, sections: doc.sections };
}

// ---------------------------------------------------------------------------------------------------
// HTML

const BLOCKS = new Set(
  'address article aside blockquote body dd details dialog div dl dt fieldset figcaption figure footer form header hr li main nav ol p pre section summary table tbody td tfoot th thead tr ul'.split(
    ' ',
  ),
);
const SKIPPED = new Set('script style noscript template svg iframe object canvas head button select'.split(' '));
const SKIPPED_OUTSIDE_ARTICLE = new Set('nav footer aside form'.split(' '));

/** The DOM of linkedom, as walked here. */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/**
 * Sections of an element's text by its headings (h1–h6): block elements end paragraphs, `<br>` a line;
 * scripts, styles and (outside a Readability article) navigation and footers are left out. Walks without
 * recursion (a deeply nested page cannot overflow the stack).
 */
function sectionsOf(root: DomNode, skipChrome: boolean): ExtractedSection[] {
  const sections: ExtractedSection[] = [];
  let heading: string | null = null;
  let parts: string[] = [];
  const flush = () => {
    const text = parts
      .join('')
      .split(/\n{2,}/)
      .map((p) =>
        p
          .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
          .replace(/ ?\n ?/g, '\n')
          .trim(),
      )
      .filter(Boolean)
      .join('\n\n');
    if (text) sections.push({ heading, text, page: null });
    parts = [];
  };
  const stack: (DomNode | 'break')[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node === 'break') {
      parts.push('\n\n');
      continue;
    }
    if (node.nodeType === 3) {
      parts.push(node.textContent ?? '');
      continue;
    }
    if (node.nodeType !== 1) continue;
    const tag = node.nodeName.toLowerCase();
    if (SKIPPED.has(tag) || (skipChrome && SKIPPED_OUTSIDE_ARTICLE.has(tag))) continue;
    if (/^h[1-6]$/.test(tag)) {
      flush();
      heading = (node.textContent ?? '').replace(/\s+/g, ' ').trim() || heading;
      continue;
    }
    if (tag === 'br') {
      parts.push('\n');
      continue;
    }
    const block = BLOCKS.has(tag);
    if (block) stack.push('break');
    const children = node.childNodes; // linkedom builds the list on each read: read it once
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    if (block) parts.push('\n\n');
  }
  flush();
  return sections;
}

/** A page parsed by linkedom (its types speak of the browser's DOM, which this build does not declare). */
const domOf = (html: string) =>
  (
    parseHTML(html) as unknown as {
      document: {
        title?: string;
        body: DomNode | null;
        documentElement: DomNode;
        querySelectorAll(selector: string): { length: number };
        querySelector(selector: string): { textContent?: string | null } | null;
      };
    }
  ).document;

/** Pages with more elements than this skip Readability (its scoring visits every element, more than once). */
const READABILITY_MAX_ELEMENTS = 30_000;

/**
 * HTML: with `readable`, the page's main content as Mozilla's Readability (Firefox Reader View) finds it,
 * else (when it finds none, or the page has more than `READABILITY_MAX_ELEMENTS` elements) the whole
 * body less scripts, navigation and footers; sections by headings. Title: `<title>`, else Readability's,
 * else the first heading. The page is parsed once, twice only when Readability (which changes the page
 * it reads) found nothing.
 */
function htmlDocument(html: string, readable: boolean): ExtractedDocument {
  let page = domOf(html);
  const title = page.title?.replace(/\s+/g, ' ').trim() || null;
  if (readable && page.querySelectorAll('*').length <= READABILITY_MAX_ELEMENTS) {
    const h1 = (page.querySelector('h1')?.textContent ?? '').replace(/\s+/g, ' ').trim() || null;
    try {
      const article = new Readability(page as never).parse();
      if (article?.content && article.textContent?.trim()) {
        const content = domOf(`<!doctype html><html><body>${article.content}</body></html>`);
        const sections = sectionsOf(content.body ?? content.documentElement, false);
        // Readability drops a heading it took as the article's title: the text before the next heading is its.
        if (h1 && sections[0]?.heading === null && !sections.some((x) => x.heading === h1)) sections[0].heading = h1;
        if (sections.length) return { title: title ?? (article.title?.trim() || null), sections };
      }
    } catch {
      // Readability could not read it: the whole body below.
    }
    page = domOf(html);
  }
  const sections = sectionsOf(page.body ?? page.documentElement, readable);
  return { title: title ?? sections.find((s) => s.heading)?.heading ?? null, sections };
}

// ---------------------------------------------------------------------------------------------------

/**
 * Extracts a file (in the extraction thread; see knowledge-extract.ts `extractDocument`), then checks the
 * result: no text at all → `no_text`; more than `FILE_LIMITS.maxCharacters` → `text_too_long`.
 */
export async function extractInThread(input: {
  bytes: Buffer;
  filename?: string;
  contentType?: string;
}): Promise<ExtractedDocument> {
  const type = detectFileType(input);
  const bytes = input.bytes;
  let doc: ExtractedDocument;
  if (type === 'pdf') {
    if (bytes.subarray(0, 1024).indexOf('%PDF-') < 0)
      throw new KnowledgeSourceError('file_corrupt', 'The file is not a PDF (no %PDF- header).');
    doc = await pdfDocument(bytes);
  } else if (type === 'docx') doc = await docxDocument(bytes);
  else {
    const text = decodeText(bytes);
    if (type === 'html') doc = htmlDocument(text, true);
    else if (type === 'markdown') doc = markdownSections(text);
    else if (type === 'csv') doc = csvSections(text);
    else if (type === 'txt') doc = { title: null, sections: [{ heading: null, text, page: null }] };
    else throw new KnowledgeSourceError('file_type_unsupported', 'Take PDF, DOCX, HTML, Markdown, TXT or CSV files.');
  }
  const characters = doc.sections.reduce((sum, s) => sum + s.text.length, 0);
  if (!doc.sections.some((s) => /\S/.test(s.text))) throw new KnowledgeSourceError('no_text', FILE_FAILURES.no_text);
  if (characters > FILE_LIMITS.maxCharacters)
    throw new KnowledgeSourceError('text_too_long', FILE_FAILURES.text_too_long);
  return doc;
}
