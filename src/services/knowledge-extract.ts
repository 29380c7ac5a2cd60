/**
 * Extraction of a knowledge source's text: bytes (and a file name, content type or URL) → a title and
 * sections, each under the heading it follows. This version reads HTML only (web pages fetched by the
 * crawl, src/services/knowledge-crawl.ts); the other file types share the same signature.
 *
 * HTML: parsed by `linkedom` (a DOM without a browser), the page's main content picked by Mozilla's
 * `@mozilla/readability` (Firefox Reader View's algorithm: navigation, footers and sidebars left out),
 * the whole `<body>` when Readability finds no article. Sections start at each `h1`–`h6`; block elements
 * (paragraphs, list items, table rows…) become paragraphs (blank-line separated, what `chunkText` splits
 * on). Scripts, styles, templates and navigation (`nav`) are never text. Title: `<title>`, else Readability's, else the first
 * heading.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** A part of a document under one heading (`heading` null before the first one); `page` 1-based (PDF), else null. */
export interface ExtractedSection {
  heading: string | null;
  text: string;
  page: number | null;
}

/** What a source holds: its title (null when it has none) and its sections in order. */
export interface ExtractedDocument {
  title: string | null;
  sections: ExtractedSection[];
}

/** A source that cannot be read; `code` is stable (`unsupported_type`, `empty_document`, …). */
export class KnowledgeSourceError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'KnowledgeSourceError';
  }
}

/** Elements whose text is never content. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'HEAD', 'NAV']);
/** Elements that end a paragraph. */
const BLOCKS = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'ASIDE',
  'HEADER',
  'FOOTER',
  'NAV',
  'LI',
  'UL',
  'OL',
  'DL',
  'DT',
  'DD',
  'TR',
  'TABLE',
  'BLOCKQUOTE',
  'PRE',
  'FIGURE',
  'FIGCAPTION',
  'BR',
  'HR',
  'FORM',
  'ADDRESS',
]);
const HEADING = /^H[1-6]$/;

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/** The parts of linkedom's document read here (the project compiles without the DOM library's types). */
interface HtmlDocument extends DomNode {
  title: string | null;
  body: DomNode | null;
  querySelector(selector: string): DomNode | null;
}

/** A parsed HTML document (linkedom). */
const parse = (html: string) => (parseHTML(html) as unknown as { document: HtmlDocument }).document;

/** The sections of a DOM subtree: a new one at each heading, paragraphs at block boundaries. */
function sectionsOf(root: DomNode): ExtractedSection[] {
  const sections: { heading: string | null; parts: string[] }[] = [{ heading: null, parts: [''] }];
  const current = () => sections[sections.length - 1];
  const breakParagraph = () => {
    const parts = current().parts;
    if (parts[parts.length - 1].trim()) parts.push('');
  };
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) {
      const parts = current().parts;
      parts[parts.length - 1] += node.textContent ?? '';
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const name = node.nodeName.toUpperCase();
    if (SKIPPED.has(name)) return;
    if (HEADING.test(name)) {
      const heading = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (heading) {
        sections.push({ heading, parts: [''] });
        return;
      }
    }
    const block = BLOCKS.has(name);
    if (block) breakParagraph();
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) breakParagraph();
  };
  walk(root);
  return sections
    .map((s) => ({
      heading: s.heading,
      text: s.parts
        .map((p) => p.replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .join('\n\n'),
      page: null,
    }))
    .filter((s) => s.text || s.heading);
}

/** The charset named by a `Content-Type` (default UTF-8; an unknown label reads as UTF-8). */
function decode(bytes: Buffer, contentType: string | undefined): string {
  const label = /charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

const isHtml = (input: { filename?: string; contentType?: string }) =>
  /^(text\/html|application\/xhtml\+xml)\b/i.test(input.contentType ?? '') || /\.x?html?$/i.test(input.filename ?? '');

/** Title, sections of an HTML page (see the module's header). */
function extractHtml(html: string): ExtractedDocument {
  const document = parse(html);
  const pageTitle = (document.title ?? '').replace(/\s+/g, ' ').trim() || null;
  let article: { title?: string | null; content?: string | null } | null;
  try {
    // Readability changes the document it reads: it gets a copy.
    article = new Readability(parse(html) as never, { charThreshold: 200 }).parse();
  } catch {
    article = null;
  }
  let sections: ExtractedSection[] = [];
  if (article?.content) {
    sections = sectionsOf(parse(`<html><body>${article.content}</body></html>`));
    // Readability drops a heading it took as the article's title: the text before the next heading is its.
    const h1 = (document.querySelector('h1')?.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (h1 && sections[0]?.heading === null && !sections.some((s) => s.heading === h1)) sections[0].heading = h1;
  }
  // A short page (or one Readability finds no article in) is read whole.
  const length = (s: ExtractedSection[]) => s.reduce((n, x) => n + x.text.length, 0);
  if (length(sections) < 200) {
    const whole = sectionsOf(document.body ?? document);
    if (length(whole) > length(sections)) sections = whole;
  }
  const title = pageTitle ?? (article?.title?.trim() || null) ?? sections.find((s) => s.heading)?.heading ?? null;
  return { title, sections: sections.filter((s) => s.text) };
}

/**
 * Reads a source: bytes + file name and/or content type (+ the page's URL, unused by the HTML reader).
 * @returns its title and sections (at least one with text)
 * @throws KnowledgeSourceError `unsupported_type` for anything but HTML (in this version);
 *   `empty_document` when no text is found
 */
export async function extractDocument(input: {
  bytes: Buffer;
  filename?: string;
  contentType?: string;
  url?: string;
}): Promise<ExtractedDocument> {
  if (!isHtml(input))
    throw new KnowledgeSourceError(
      'unsupported_type',
      `Unsupported content type ${input.contentType ?? 'unknown'}: only HTML pages are read.`,
    );
  const doc = extractHtml(decode(input.bytes, input.contentType));
  if (doc.sections.length === 0) throw new KnowledgeSourceError('empty_document', 'The page has no text.');
  return doc;
}
