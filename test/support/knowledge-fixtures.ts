/**
 * Files of every type knowledge documents take, built here (no fixture files): PDFs written by `pdf-lib`
 * (headings in a larger bold font, a Title in the metadata), DOCX packages zipped here with Word's
 * heading styles, HTML, Markdown, TXT and CSV texts; and the bad ones: an encrypted PDF (the PDF
 * standard security handler, RC4 40-bit, revision 2, with a user password), a corrupt PDF, a PDF without
 * text, and zip bombs disguised as DOCX (one that declares its huge size, one that lies about it).
 * Used by test/integration/knowledge-files.test.ts (and free for a benchmark).
 */
import { createHash, randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

/** A section of a fixture: a heading and its paragraphs. */
export interface FixtureSection {
  heading: string;
  paragraphs: string[];
}

/** Words of `text` wrapped to lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A PDF with one page per entry of `pages` (each a list of sections: heading at 18 pt bold, paragraphs at
 * 11 pt, a blank line between paragraphs; a page that fills up continues on an extra page).
 */
export async function buildPdf(pages: FixtureSection[][], title = 'Fixture PDF'): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const sections of pages) {
    let page = doc.addPage([612, 792]);
    let y = 740;
    const line = (text: string, size: number, f = font) => {
      if (y < 60) {
        page = doc.addPage([612, 792]);
        y = 740;
      }
      page.drawText(text, { x: 50, y, size, font: f });
      y -= size * 1.4;
    };
    for (const s of sections) {
      line(s.heading, 18, bold);
      y -= 4;
      for (const p of s.paragraphs) {
        for (const l of wrap(p, 90)) line(l, 11);
        y -= 11;
      }
    }
  }
  return Buffer.from(await doc.save());
}

/**
 * A PDF of about `bytes` bytes: `textPages` pages of text, and on the first a photo-sized image of random
 * bytes (a JPEG as PDF.js sees it: only its header is read, and images are not decoded for text).
 */
export async function buildLargePdf(bytes: number, textPages = 60): Promise<Buffer> {
  const sections = Array.from({ length: textPages }, (_, p) => [
    {
      heading: `Chapter ${p + 1}`,
      paragraphs: Array.from(
        { length: 6 },
        (_, i) =>
          `Paragraph ${i} of chapter ${p + 1} describes shelf ${p * 10 + i}, its lamps, carpets and doors, and the opening hours of aisle ${i}.`,
      ),
    },
  ]);
  const text = await buildPdf(sections, 'Large PDF');
  const pad = bytes - text.length - 4096;
  if (pad <= 0) return text;
  const doc = await PDFDocument.load(text);
  // SOI, a baseline SOF0 header (8-bit, 2000 x 2000, one component), then the "scan" and EOI.
  const header = Buffer.from('ffd8ffc0000b0807d007d00101110000ffda0008010100003f00', 'hex');
  const jpeg = Buffer.concat([header, randomBytes(pad), Buffer.from('ffd9', 'hex')]);
  const image = await doc.embedJpg(jpeg);
  doc.getPage(0).drawImage(image, { x: 400, y: 40, width: 150, height: 150 });
  return Buffer.from(await doc.save());
}

/** A PDF whose only page holds a drawn rectangle: no text at all (as a scan without OCR). */
export async function buildNoTextPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]).drawRectangle({ x: 50, y: 50, width: 200, height: 100, color: rgb(0.2, 0.4, 0.8) });
  return Buffer.from(await doc.save());
}

/** Bytes that start like a PDF and are not one. */
export function buildCorruptPdf(): Buffer {
  const noise = Buffer.alloc(4096);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 193 + 71) % 256;
  return Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Cat', 'latin1'), noise]);
}

/** RC4, the stream cipher of the PDF standard security handler (revision 2). */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[n] = data[n] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();

/**
 * A one-page PDF encrypted by the standard security handler (ISO 32000-1 section 7.6.3, revision 2,
 * RC4 40-bit) with the user password `userPassword`: its content stream is encrypted, and no reader
 * opens it without the password.
 */
export function buildEncryptedPdf(userPassword = 'secret', text = 'Encrypted price list: bolts cost 3 euros.'): Buffer {
  const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
  const padded = (pw: string) => Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);
  const id = md5(Buffer.from('fixture id'));
  const permissions = -4; // every permission
  const O = rc4(md5(padded('owner-password')).subarray(0, 5), padded(userPassword)); // Algorithm 3
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(padded(userPassword), O, p, id).subarray(0, 5); // Algorithm 2
  const U = rc4(key, PAD); // Algorithm 4
  const objectKey = (num: number) =>
    md5(key, Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0])).subarray(0, 10);
  const content = rc4(objectKey(4), Buffer.from(`BT /F1 12 Tf 72 712 Td (${text}) Tj ET`, 'latin1'));
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} >>\nstream\n`, 'latin1'),
      content,
      Buffer.from('\nendstream', 'latin1'),
    ]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${O.toString('hex')}> /U <${U.toString('hex')}> /P ${permissions} >>`,
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0].length;
  objects.forEach((o, i) => {
    offsets.push(length);
    const body = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof o === 'string' ? Buffer.from(o, 'latin1') : o,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(body);
    length += body.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>\n` +
    `startxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------------------------------------------
// Zip (DOCX)

/** A zip entry: its name and content, and (for a lying zip) the uncompressed size its headers declare. */
interface ZipEntry {
  name: string;
  data: Buffer;
  declaredSize?: number;
}

/** A zip file (deflated entries, one central directory): the format of a DOCX package. */
export function buildZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const compressed = zlib.deflateRawSync(e.data);
    const crc = zlib.crc32(e.data);
    const size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** The parts of a DOCX package around `documentXml` (content types, relationships, heading styles). */
function docxPackage(documentXml: Buffer, declaredSize?: number): Buffer {
  const styles = [1, 2, 3]
    .map(
      (n) =>
        `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/><w:basedOn w:val="Normal"/></w:style>`,
    )
    .join('');
  return buildZip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
    },
    {
      name: 'word/_rels/document.xml.rels',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
      ),
    },
    {
      name: 'word/styles.xml',
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>${styles}</w:styles>`,
      ),
    },
    { name: 'word/document.xml', data: documentXml, declaredSize },
  ]);
}

/** A DOCX with each section's heading in Word's "heading 1" style and its paragraphs in "Normal". */
export function buildDocx(sections: FixtureSection[]): Buffer {
  const para = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
  const body = sections.map((s) => para(s.heading, 'Heading1') + s.paragraphs.map((p) => para(p)).join('')).join('');
  return docxPackage(
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    ),
  );
}

/**
 * A zip bomb named like a DOCX: its `word/document.xml` inflates to `megabytes` MB of spaces (from about
 * a thousandth of that). With `lie`, its headers declare 1 KB for that entry, so only inflating it shows
 * the size.
 */
export function buildZipBombDocx(megabytes = 120, lie = false): Buffer {
  const xml = Buffer.alloc(megabytes * 1024 * 1024, 0x20);
  Buffer.from(`<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body>`).copy(xml);
  return docxPackage(xml, lie ? 1024 : undefined);
}

// ---------------------------------------------------------------------------------------------------
// Text types

/** An HTML page: navigation and a footer around an article with an h1 and an h2 per section. */
export function buildHtml(title: string, sections: FixtureSection[]): Buffer {
  const article = sections
    .map((s) => `<h2>${escapeXml(s.heading)}</h2>${s.paragraphs.map((p) => `<p>${escapeXml(p)}</p>`).join('')}`)
    .join('\n');
  return Buffer.from(
    `<!doctype html><html><head><title>${escapeXml(title)}</title><style>p{color:red}</style><script>var tracking = "nope";</script></head>` +
      `<body><nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/cart">Cart</a></nav>` +
      `<main><article><h1>${escapeXml(title)}</h1>${article}</article></main>` +
      `<footer>Copyright footer text that is not knowledge.</footer></body></html>`,
  );
}

/** A Markdown file: `# title`, then `## heading` per section. */
export function buildMarkdown(title: string, sections: FixtureSection[]): Buffer {
  return Buffer.from(
    `# ${title}\n\n` + sections.map((s) => `## ${s.heading}\n\n${s.paragraphs.join('\n\n')}\n`).join('\n'),
  );
}

/** A plain text file: paragraphs separated by blank lines. */
export function buildTxt(paragraphs: string[]): Buffer {
  return Buffer.from(paragraphs.join('\n\n') + '\n');
}

/** A CSV file with a header row (fields quoted where they hold commas or quotes). */
export function buildCsv(header: string[], rows: string[][]): Buffer {
  const field = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return Buffer.from([header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n');
}
