/**
 * Text out of a knowledge document's file (PDF, DOCX, HTML, Markdown, TXT, CSV), cut in sections by its
 * headings (and, for a PDF, its pages), for src/services/knowledge.ts to chunk. Every parser is a
 * maintained library: PDF.js (`pdfjs-dist`, Mozilla's), `mammoth` (DOCX to HTML), Mozilla's
 * `@mozilla/readability` over the `linkedom` DOM (HTML), `csv-parse` (CSV); the zip of a DOCX is checked
 * with `yauzl` before `mammoth` opens it.
 *
 * Extraction runs in a worker thread (src/services/knowledge-extract-worker.ts), one job at a time per
 * process: the caller's event loop never waits on a parser, a job running past `FILE_LIMITS.extractionMs`
 * is stopped (the thread is terminated and a new one started for the next job), and a file whose content
 * blows up past the worker's heap (`FILE_LIMITS.workerHeapMb`) ends that job alone.
 *
 * Failures are `KnowledgeSourceError`s whose `code` says what was wrong with the file (`FILE_FAILURES`);
 * the document is then kept with `status: "failed"` and that code as its `failure_reason`.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { parse as parseCsv } from 'csv-parse/sync';

/** A piece of a document under one heading (and on one page of a PDF). */
export interface ExtractedSection {
  /** The nearest heading above the text (h1–h6, `#`, a PDF line in a larger font); null before any. */
  heading: string | null;
  text: string;
  /** 1-based page of a PDF; null for other types. */
  page: number | null;
}

/** What a file holds: its own title (PDF metadata, HTML `<title>`, first h1), and its sections in order. */
export interface ExtractedDocument {
  title: string | null;
  sections: ExtractedSection[];
}

/** A file that cannot be made into knowledge; `code` is one of `FILE_FAILURES`' keys. */
export class KnowledgeSourceError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'KnowledgeSourceError';
  }
}

/** Caps on files (README "Knowledge"; the OpenAPI document says them too). */
export const FILE_LIMITS = {
  /** Bytes of an uploaded file (multipart `file`, or `file_base64` decoded). */
  maxFileBytes: 20 * 1024 * 1024,
  /** Bytes a DOCX's zip entries may inflate to, altogether (declared and actual). */
  maxUncompressedBytes: 100 * 1024 * 1024,
  /** Entries of a DOCX's zip. */
  maxZipEntries: 5_000,
  /** Characters of extracted text (the text limit of `POST /v1/knowledge`). */
  maxCharacters: 500_000,
  /** Milliseconds one extraction may run before it is stopped. */
  extractionMs: 30_000,
  /** Megabytes of heap of the extraction thread. */
  workerHeapMb: 768,
};

/** The `failure_reason` codes of a file document, and what each means (README lists them). */
export const FILE_FAILURES: Record<string, string> = {
  pdf_encrypted: 'The PDF is encrypted with a password.',
  file_corrupt: 'The file is damaged or is not of the type its name or content type says.',
  file_too_large_uncompressed: `The file inflates past ${FILE_LIMITS.maxUncompressedBytes / 1024 / 1024} MB (a zip bomb, or too large).`,
  no_text: 'The file holds no text (a scanned PDF needs OCR, which is not done).',
  text_too_long: `The file's text is longer than ${FILE_LIMITS.maxCharacters.toLocaleString('en')} characters.`,
  extraction_timeout: `Extraction took longer than ${FILE_LIMITS.extractionMs / 1000} seconds.`,
};

/** The types taken, by extension, with their canonical content type. */
export const FILE_TYPES = {
  pdf: { extensions: ['pdf'], contentTypes: ['application/pdf'] },
  docx: {
    extensions: ['docx'],
    contentTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  },
  html: { extensions: ['html', 'htm', 'xhtml'], contentTypes: ['text/html', 'application/xhtml+xml'] },
  markdown: { extensions: ['md', 'markdown'], contentTypes: ['text/markdown', 'text/x-markdown'] },
  txt: { extensions: ['txt', 'text'], contentTypes: ['text/plain'] },
  csv: { extensions: ['csv'], contentTypes: ['text/csv', 'application/csv'] },
} as const;
export type FileType = keyof typeof FILE_TYPES;

/**
 * The type of a file: by its name's extension when it has a known one, else by its content type
 * (parameters such as `; charset=` ignored), else by the bytes (`%PDF-`); null when none says.
 */
export function detectFileType(input: { filename?: string; contentType?: string; bytes?: Buffer }): FileType | null {
  const types = Object.entries(FILE_TYPES) as [FileType, (typeof FILE_TYPES)[FileType]][];
  const ext = path
    .extname(input.filename ?? '')
    .slice(1)
    .toLowerCase();
  const byExt = types.find(([, t]) => (t.extensions as readonly string[]).includes(ext));
  if (byExt) return byExt[0];
  const mime = (input.contentType ?? '').split(';')[0].trim().toLowerCase();
  const byMime = types.find(([, t]) => (t.contentTypes as readonly string[]).includes(mime));
  if (byMime) return byMime[0];
  if (input.bytes?.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Text files

/** Text of a text file: UTF-8 (BOM dropped), UTF-16 with a BOM, else Windows-1252 when not valid UTF-8. */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** Markdown: a section per ATX heading (`#` to `######`), fenced code blocks left whole. */
export function markdownSections(text: string): ExtractedDocument {
  const sections: ExtractedSection[] = [];
  let heading: string | null = null;
  let lines: string[] = [];
  let fence: string | null = null;
  let title: string | null = null;
  const flush = () => {
    const body = lines.join('\n').trim();
    if (body) sections.push({ heading, text: body, page: null });
    lines = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark && fence === null) fence = fenceMark[0];
    else if (fenceMark && fenceMark[0] === fence) fence = null;
    const h = fence === null && !fenceMark ? /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line) : null;
    if (h) {
      flush();
      heading = h[2].trim() || null;
      if (h[1].length === 1) title ??= heading;
    } else lines.push(line);
  }
  flush();
  return { title, sections };
}

/**
 * CSV: the first row names the columns; each row is rendered as `column: value` lines (empty values left
 * out), 20 rows a section headed `Rows 1–20`, so a chunk never mixes a row with another's columns.
 */
export function csvSections(text: string): ExtractedDocument {
  let rows: string[][];
  try {
    rows = parseCsv(text, { bom: true, skip_empty_lines: true, relax_column_count: true, max_record_size: 1_000_000 });
  } catch (err) {
    throw new KnowledgeSourceError('file_corrupt', `The CSV could not be parsed: ${(err as Error).message}`);
  }
  const [header = [], ...data] = rows;
  const names = header.map((h, i) => h.trim() || `column ${i + 1}`);
  const sections: ExtractedSection[] = [];
  const PER_SECTION = 20;
  for (let i = 0; i < data.length; i += PER_SECTION) {
    const group = data.slice(i, i + PER_SECTION);
    const text = group
      .map((row) =>
        row
          .map((v, c) => (v.trim() ? `${names[c] ?? `column ${c + 1}`}: ${v.trim()}` : ''))
          .filter(Boolean)
          .join('\n'),
      )
      .filter(Boolean)
      .join('\n\n');
    sections.push({ heading: `Rows ${i + 1}–${i + group.length}`, text, page: null });
  }
  return { title: null, sections };
}

// ---------------------------------------------------------------------------------------------------
// Running in the worker thread

type Job = {
  input: { bytes: Buffer; filename?: string; contentType?: string; url?: string };
  timeoutMs: number;
  resolve: (doc: ExtractedDocument) => void;
  reject: (err: Error) => void;
};

/** The extraction thread and its queue (one job at a time). */
const pool = { worker: null as Worker | null, queue: [] as Job[], busy: false };

function startWorker(): Worker {
  const worker = new Worker(path.join(__dirname, 'knowledge-extract-worker.js'), {
    resourceLimits: { maxOldGenerationSizeMb: FILE_LIMITS.workerHeapMb, maxYoungGenerationSizeMb: 64 },
  });
  worker.unref();
  return worker;
}

/** Runs the next queued job in the worker; a timeout or a crash of the worker ends that job only. */
function runNext(): void {
  if (pool.busy) return;
  const job = pool.queue.shift();
  if (!job) return;
  pool.busy = true;
  const worker = (pool.worker ??= startWorker());
  worker.ref(); // a running job keeps the process alive
  let settled = false;
  const finish = (fail: Error | null, doc?: ExtractedDocument) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
    worker.unref();
    pool.busy = false;
    if (fail) job.reject(fail);
    else job.resolve(doc!);
    setImmediate(runNext);
  };
  const drop = () => {
    if (pool.worker === worker) pool.worker = null;
    void worker.terminate();
  };
  const timer = setTimeout(() => {
    drop();
    finish(new KnowledgeSourceError('extraction_timeout', FILE_FAILURES.extraction_timeout));
  }, job.timeoutMs);
  const onMessage = (m: { ok: true; doc: ExtractedDocument } | { ok: false; code: string | null; message: string }) =>
    m.ok
      ? finish(null, m.doc)
      : finish(m.code ? new KnowledgeSourceError(m.code, m.message) : new Error(`extraction failed: ${m.message}`));
  const onError = (err: Error & { code?: string }) => {
    drop();
    finish(
      err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new KnowledgeSourceError(
            'file_too_large_uncompressed',
            `Extracting the file took more than ${FILE_LIMITS.workerHeapMb} MB of memory.`,
          )
        : err,
    );
  };
  const onExit = () => {
    if (pool.worker === worker) pool.worker = null;
    finish(new Error('the extraction thread exited'));
  };
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  const copy = new Uint8Array(job.input.bytes); // its own buffer, handed over to the thread
  worker.postMessage({ ...job.input, bytes: copy }, [copy.buffer]);
}

/**
 * Extracts a file's title and sections (see the module's docstring): in the extraction thread, one job at
 * a time, stopped after `timeoutMs` (default `FILE_LIMITS.extractionMs`).
 * @param input.bytes the file; `filename` and/or `contentType` give its type (`detectFileType`); `url`,
 *   for HTML, the page's address (relative links resolve against it)
 * @throws KnowledgeSourceError `file_type_unsupported` for a type not taken, and every code of
 *   `FILE_FAILURES` for a file that cannot be read; Error when the thread itself fails
 */
export function extractDocument(input: {
  bytes: Buffer;
  filename?: string;
  contentType?: string;
  url?: string;
  timeoutMs?: number;
}): Promise<ExtractedDocument> {
  const { timeoutMs = FILE_LIMITS.extractionMs, ...rest } = input;
  if (!detectFileType(rest))
    return Promise.reject(
      new KnowledgeSourceError('file_type_unsupported', 'Take PDF, DOCX, HTML, Markdown, TXT or CSV files.'),
    );
  return new Promise((resolve, reject) => {
    pool.queue.push({ input: rest, timeoutMs, resolve, reject });
    runNext();
  });
}
