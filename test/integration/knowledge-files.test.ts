/**
 * Knowledge documents from files, end to end through the real API and FerretDB: a PDF, DOCX, HTML,
 * Markdown, TXT and CSV file built by test/support/knowledge-fixtures.ts, each uploaded both ways
 * (`multipart/form-data` and JSON `file_base64`), then searched (a fact on page 2 of the PDF comes back
 * with its page and heading); and the bad files (encrypted, corrupt, a zip bomb named .docx, no text),
 * which leave a `failed` document with its `failure_reason`, never a 500; an extraction past its time
 * cap is stopped and the next one still runs. `POST /v1/knowledge/{id}` replaces a document's content with
 * a new file both ways (same id, title kept unless given, old chunks gone), and refuses mixed sources.
 */
import { expect } from 'chai';
import { h, newTenant, request } from '../support/harness';
import {
  buildCorruptPdf,
  buildCsv,
  buildDocx,
  buildEncryptedPdf,
  buildHtml,
  buildLargePdf,
  buildMarkdown,
  buildNoTextPdf,
  buildPdf,
  buildTxt,
  buildZipBombDocx,
  type FixtureSection,
} from '../support/knowledge-fixtures';
import { extractDocument, FILE_LIMITS, KnowledgeSourceError } from '../../src/services/knowledge-extract';
import { KnowledgeChunk, KnowledgeRevision } from '../../src/models/knowledge';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** Uploads `bytes` as a multipart form (`file` part plus text fields) to `path` (create, or replace a document). */
async function upload(
  key: string,
  fields: Record<string, string>,
  file: { bytes: Buffer; filename: string; contentType?: string },
  headers: Record<string, string> = {},
  path = '/v1/knowledge',
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([file.bytes], { type: file.contentType ?? 'application/octet-stream' }), file.filename);
  const res = await fetch(`${h().api.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, ...headers },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Posts `bytes` as JSON `file_base64` + `filename` (+ `content_type`). */
function postBase64(
  key: string,
  fields: Record<string, string>,
  file: { bytes: Buffer; filename: string; contentType?: string },
  headers: Record<string, string> = {},
) {
  return request('POST', '/v1/knowledge', {
    key,
    headers,
    body: {
      ...fields,
      file_base64: file.bytes.toString('base64'),
      filename: file.filename,
      ...(file.contentType ? { content_type: file.contentType } : {}),
    },
  });
}

async function search(key: string, agentId: string, query: string, limit = 5) {
  const res = await request(
    'GET',
    `/v1/knowledge/search?agent_id=${agentId}&query=${encodeURIComponent(query)}&limit=${limit}`,
    { key },
  );
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data as {
    document: string;
    title: string;
    text: string;
    heading: string | null;
    page: number | null;
  }[];
}

async function newAgent(t: Tenant) {
  const res = await request('POST', '/v1/agents', {
    key: t.testKey,
    body: { name: 'Files agent', instructions: 'Help.' },
  });
  expect(res.status).to.equal(200);
  return res.body.id as string;
}

const SHOP: FixtureSection[] = [
  {
    heading: 'Refund policy',
    paragraphs: [
      'Customers may return a bicycle within 45 days of delivery for a full refund.',
      'The refund reaches the card in five business days.',
    ],
  },
  { heading: 'Warranty', paragraphs: ['Every frame carries a lifetime warranty against cracks.'] },
];

/** A fact per type, its file, and what a search for it must bring back. */
async function fixtures() {
  const pdf = await buildPdf(
    [
      SHOP,
      [
        {
          heading: 'Night deliveries',
          paragraphs: ['Parcels for the depot are received at the loading dock by the porter Ignatius after 22:00.'],
        },
      ],
    ],
    'Shop handbook',
  );
  return [
    {
      type: 'pdf',
      file: { bytes: pdf, filename: 'handbook.pdf' },
      query: 'porter Ignatius',
      heading: 'Night deliveries',
      page: 2,
      title: 'Shop handbook',
    },
    {
      type: 'docx',
      file: {
        bytes: buildDocx([
          ...SHOP,
          { heading: 'Helmets', paragraphs: ['Helmet fitting by Ottoline is free on Thursdays.'] },
        ]),
        filename: 'policies.docx',
      },
      query: 'Ottoline helmet fitting',
      heading: 'Helmets',
      page: null,
      title: 'Refund policy',
    },
    {
      type: 'html',
      file: {
        bytes: buildHtml('Store FAQ', [
          ...SHOP,
          { heading: 'Parking', paragraphs: ['Customers park free behind the Quixotic bakery on weekends.'] },
        ]),
        filename: 'faq.html',
        contentType: 'text/html; charset=utf-8',
      },
      query: 'Quixotic bakery parking',
      heading: 'Parking',
      page: null,
      title: 'Store FAQ',
    },
    {
      type: 'markdown',
      file: {
        bytes: buildMarkdown('Workshop', [
          { heading: 'Tune-ups', paragraphs: ['A Zanzibar tune-up costs 49 euros and takes a day.'] },
        ]),
        filename: 'workshop.md',
      },
      query: 'Zanzibar tune-up',
      heading: 'Tune-ups',
      page: null,
      title: 'Workshop',
    },
    {
      type: 'txt',
      file: {
        bytes: buildTxt(['Plain notes.', 'The spare key lives with Bartholomew at the kiosk.']),
        filename: 'notes.txt',
      },
      query: 'spare key Bartholomew',
      heading: null,
      page: null,
      title: 'notes.txt',
    },
    {
      type: 'csv',
      file: {
        bytes: buildCsv(
          ['product', 'price', 'note'],
          [
            ['Trekking bike', '899', 'aluminium, 21 gears'],
            ['Kestrel road bike', '1450', 'carbon "race" frame'],
          ],
        ),
        filename: 'prices.csv',
        contentType: 'text/csv',
      },
      query: 'Kestrel road bike price',
      heading: 'Rows 1–2',
      page: null,
      title: 'prices.csv',
    },
  ];
}

describe('knowledge from files', function () {
  this.timeout(60_000);
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });

  it('takes each type both ways (multipart and file_base64) and finds its facts with their heading and page', async () => {
    const agentId = await newAgent(t);
    for (const f of await fixtures()) {
      const multipart = await upload(t.testKey, { agent_id: agentId }, f.file);
      expect(multipart.status, `${f.type}: ${JSON.stringify(multipart.body)}`).to.equal(200);
      const json = await postBase64(t.testKey, { agent_id: agentId, title: `${f.type} by JSON` }, f.file);
      expect(json.status, `${f.type}: ${JSON.stringify(json.body)}`).to.equal(200);
      for (const doc of [multipart.body, json.body]) {
        expect(doc.status, f.type).to.equal('ready');
        expect(doc.failure_reason).to.equal(null);
        expect(doc.source).to.include({ type: 'file', filename: f.file.filename, bytes: f.file.bytes.length });
        expect(doc.chunks, f.type).to.be.greaterThan(0);
      }
      expect(multipart.body.title, f.type).to.equal(f.title); // the file's own title, else its name
      expect(json.body.title).to.equal(`${f.type} by JSON`);
      // Both ways give the same document.
      expect(json.body.characters).to.equal(multipart.body.characters);
      expect(json.body.chunks).to.equal(multipart.body.chunks);
      expect((await request('GET', `/v1/knowledge/${multipart.body.id}`, { key: t.testKey })).body).to.deep.equal(
        multipart.body,
      );

      const hits = await search(t.testKey, agentId, f.query, 2);
      expect(hits.length, f.type).to.be.greaterThan(0);
      expect([multipart.body.id, json.body.id], f.type).to.include(hits[0].document);
      expect(hits[0].heading, f.type).to.equal(f.heading);
      expect(hits[0].page, f.type).to.equal(f.page);
      expect(hits[0].text).to.include(f.query.split(' ')[0]);
    }
    // The HTML's navigation, footer and script are not knowledge.
    expect(await search(t.testKey, agentId, 'Copyright footer tracking')).to.deep.equal([]);
  });

  it('keeps chunks inside their heading and page, and a title change keeps them', async () => {
    const agentId = await newAgent(t);
    // Three paragraphs of ten sentences (about 360 words: two chunks or more), each section on one page.
    const long = (word: string) =>
      Array.from({ length: 3 }, (_, p) =>
        Array.from(
          { length: 10 },
          (_, i) => `Sentence ${p * 10 + i} about ${word} explains one more detail of the ${word} rules.`,
        ).join(' '),
      );
    const pdf = await buildPdf([
      [{ heading: 'Alpha rules', paragraphs: long('alpha') }],
      [{ heading: 'Beta rules', paragraphs: long('beta') }],
    ]);
    const res = await postBase64(
      t.testKey,
      { agent_id: agentId, title: 'Rules' },
      { bytes: pdf, filename: 'rules.pdf' },
    );
    expect(res.status).to.equal(200);
    const hits = [
      ...(await search(t.testKey, agentId, 'alpha', 20)),
      ...(await search(t.testKey, agentId, 'beta', 20)),
    ];
    expect(hits.length).to.be.greaterThan(3);
    for (const hit of hits) {
      const word = hit.heading === 'Alpha rules' ? 'alpha' : 'beta';
      expect(hit.text.startsWith(hit.heading!)).to.equal(true);
      expect(hit.text).not.to.include(word === 'alpha' ? 'beta' : 'alpha'); // never straddles a heading
      expect(hit.page).to.equal(word === 'alpha' ? 1 : 2);
    }
    const renamed = await request('POST', `/v1/knowledge/${res.body.id}`, {
      key: t.testKey,
      body: { title: 'Rule book' },
    });
    expect(renamed.status).to.equal(200);
    expect(renamed.body).to.include({ title: 'Rule book', status: 'ready', chunks: res.body.chunks });
    expect(renamed.body.source).to.deep.equal(res.body.source);
    const [hit] = await search(t.testKey, agentId, 'beta rules', 1);
    expect(hit).to.include({ title: 'Rule book', heading: 'Beta rules', page: 2 });
  });

  it('keeps a bad file as a failed document with its reason, never a 500', async () => {
    const agentId = await newAgent(t);
    const cases = [
      { file: { bytes: buildEncryptedPdf(), filename: 'locked.pdf' }, reason: 'pdf_encrypted' },
      { file: { bytes: buildCorruptPdf(), filename: 'broken.pdf' }, reason: 'file_corrupt' },
      { file: { bytes: Buffer.from('not a zip at all'), filename: 'fake.docx' }, reason: 'file_corrupt' },
      { file: { bytes: buildZipBombDocx(120), filename: 'bomb.docx' }, reason: 'file_too_large_uncompressed' },
      { file: { bytes: buildZipBombDocx(120, true), filename: 'liar.docx' }, reason: 'file_too_large_uncompressed' },
      { file: { bytes: await buildNoTextPdf(), filename: 'scan.pdf' }, reason: 'no_text' },
      {
        file: { bytes: Buffer.from('<html><body><script>x()</script></body></html>'), filename: 'empty.html' },
        reason: 'no_text',
      },
    ];
    for (const [i, c] of cases.entries()) {
      const started = Date.now();
      const res =
        i % 2
          ? await upload(t.testKey, { agent_id: agentId }, c.file)
          : await postBase64(t.testKey, { agent_id: agentId }, c.file);
      expect(res.status, `${c.file.filename}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect(Date.now() - started, c.file.filename).to.be.below(10_000);
      expect(res.body, c.file.filename).to.include({
        status: 'failed',
        failure_reason: c.reason,
        chunks: 0,
        characters: 0,
      });
      expect(res.body.failure_message).to.be.a('string').and.not.equal('');
      expect(res.body.title).to.equal(c.file.filename);
      const got = await request('GET', `/v1/knowledge/${res.body.id}`, { key: t.testKey });
      expect(got.body).to.deep.equal(res.body);
    }
    // The encrypted PDF's text is not found; the failed documents are listed and can be deleted.
    expect(await search(t.testKey, agentId, 'bolts cost euros')).to.deep.equal([]);
    const list = await request('GET', `/v1/knowledge?agent_id=${agentId}&limit=100`, { key: t.testKey });
    expect(list.body.data.map((d: { status: string }) => d.status)).to.deep.equal(cases.map(() => 'failed'));
    const del = await request('DELETE', `/v1/knowledge/${list.body.data[0].id}`, { key: t.testKey });
    expect(del.status).to.equal(200);
  });

  it('refuses what is not a file it takes: 400 with code and param', async () => {
    const agentId = await newAgent(t);
    const exe = { bytes: Buffer.from('MZ\x90\x00'), filename: 'setup.exe' };
    let res = await postBase64(t.testKey, { agent_id: agentId }, exe);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'file_type_unsupported', param: 'filename' });
    res = await upload(t.testKey, { agent_id: agentId }, exe);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'file_type_unsupported', param: 'file' });
    // The content type decides when the name has no known extension.
    res = await postBase64(
      t.testKey,
      { agent_id: agentId },
      { bytes: buildTxt(['Hello there.']), filename: 'README', contentType: 'text/plain' },
    );
    expect(res.status).to.equal(200);
    expect(res.body.source.content_type).to.equal('text/plain');

    const tooLarge = { bytes: Buffer.alloc(FILE_LIMITS.maxFileBytes + 1, 0x61), filename: 'big.txt' };
    res = await upload(t.testKey, { agent_id: agentId }, tooLarge);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'file_too_large', param: 'file' });
    res = await postBase64(t.testKey, { agent_id: agentId }, tooLarge);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ param: 'file_base64' });

    res = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agentId, title: 'Both', text: 'Some text.', file_base64: 'aGk=', filename: 'a.txt' },
    });
    expect(res.status).to.equal(400);
    // Exactly one source: the second one given is named.
    expect(res.body.error).to.include({ code: 'parameter_invalid', param: 'file_base64' });
    res = await request('POST', '/v1/knowledge', { key: t.testKey, body: { agent_id: agentId, file_base64: 'aGk=' } });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'parameter_missing', param: 'filename' });
    res = await request('POST', '/v1/knowledge', { key: t.testKey, body: { agent_id: agentId, text: 'No title.' } });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'parameter_missing', param: 'title' });
    res = await upload(
      t.testKey,
      { agent_id: agentId, colour: 'blue' },
      { bytes: buildTxt(['x y z.']), filename: 'a.txt' },
    );
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'parameter_unknown', param: 'colour' });
    // Nothing was written by the refused requests.
    const list = await request('GET', `/v1/knowledge?agent_id=${agentId}`, { key: t.testKey });
    expect(list.body.data).to.have.length(1);
  });

  it('replays an upload with the same Idempotency-Key, and refuses another file with it', async () => {
    const agentId = await newAgent(t);
    const headers = { 'Idempotency-Key': `kfile-${Math.random()}` };
    const file = {
      bytes: buildMarkdown('Hours', [{ heading: 'Weekdays', paragraphs: ['Open 9 to 5.'] }]),
      filename: 'hours.md',
    };
    const first = await upload(t.testKey, { agent_id: agentId }, file, headers);
    const again = await upload(t.testKey, { agent_id: agentId }, file, headers);
    expect(first.status).to.equal(200);
    expect(again.body.id).to.equal(first.body.id);
    const other = await upload(
      t.testKey,
      { agent_id: agentId },
      { ...file, bytes: buildTxt(['Open 10 to 6.']) },
      headers,
    );
    expect(other.status).to.equal(422);
  });

  it('replaces a document with a new file both ways: same id, title kept unless given, old content gone', async () => {
    const agentId = await newAgent(t);
    const created = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: {
        agent_id: agentId,
        title: 'Opening hours',
        text: 'The shop opens at eight and closes at six on weekdays.',
      },
    });
    expect(created.status).to.equal(200);
    const id = created.body.id as string;
    const path = `/v1/knowledge/${id}`;
    const oldChunk = (await KnowledgeChunk.findOne({ kdoc_id: id }).lean())!;

    const winter = buildMarkdown('Winter', [
      { heading: 'Winter', paragraphs: ['From November the harbour kiosk opens at ten and closes at four.'] },
    ]);
    const byPart = await upload(t.testKey, {}, { bytes: winter, filename: 'winter.md' }, {}, path);
    expect(byPart.status, JSON.stringify(byPart.body)).to.equal(200);
    expect(byPart.body).to.include({ id, title: 'Opening hours', status: 'ready', failure_reason: null });
    expect(byPart.body.source).to.include({ type: 'file', filename: 'winter.md', bytes: winter.length });
    expect(byPart.body.chunks).to.be.greaterThan(0);
    expect((await search(t.testKey, agentId, 'harbour kiosk november'))[0]).to.include({ document: id });
    expect(await search(t.testKey, agentId, 'shop weekdays eight')).to.deep.equal([]);
    expect(await KnowledgeChunk.countDocuments({ _id: oldChunk._id }), 'the old chunks are gone').to.equal(0);
    expect(await KnowledgeRevision.countDocuments({ kdoc_id: id })).to.equal(1);

    const pdf = await buildPdf(
      [[{ heading: 'Summer', paragraphs: ['In summer the kiosk sells ferry tickets until midnight.'] }]],
      'Summer',
    );
    const byBase64 = await request('POST', path, {
      key: t.testKey,
      body: { title: 'Kiosk hours', file_base64: pdf.toString('base64'), filename: 'summer.pdf' },
    });
    expect(byBase64.status, JSON.stringify(byBase64.body)).to.equal(200);
    expect(byBase64.body).to.include({ id, title: 'Kiosk hours', status: 'ready' });
    expect(byBase64.body.source).to.include({ type: 'file', filename: 'summer.pdf', content_type: 'application/pdf' });
    const [hit] = await search(t.testKey, agentId, 'ferry tickets midnight', 1);
    expect(hit).to.include({ document: id, title: 'Kiosk hours', heading: 'Summer', page: 1 });
    expect(await search(t.testKey, agentId, 'harbour november')).to.deep.equal([]);
    const rows = await KnowledgeChunk.find({ kdoc_id: id }).lean();
    expect(rows.map((r) => r.text).join(' '))
      .to.contain('midnight')
      .and.not.contain('November');
    expect(new Set(rows.map((r) => r.revision_id)).size).to.equal(1);
    const list = await request('GET', `/v1/knowledge?agent_id=${agentId}`, { key: t.testKey });
    expect(
      list.body.data.map((d: { id: string }) => d.id),
      'still one document',
    ).to.deep.equal([id]);

    // Text replaces a file: the source is text again.
    const byText = await request('POST', path, { key: t.testKey, body: { text: 'Closed on public holidays.' } });
    expect(byText.status).to.equal(200);
    expect(byText.body.source).to.deep.equal({ type: 'text' });
    expect(byText.body.title).to.equal('Kiosk hours');

    // A file that gives no text: the document is failed with its reason, as on create.
    const scan = await upload(t.testKey, {}, { bytes: await buildNoTextPdf(), filename: 'scan.pdf' }, {}, path);
    expect(scan.status).to.equal(200);
    expect(scan.body).to.include({ id, status: 'failed', failure_reason: 'no_text', chunks: 0 });
    expect(await search(t.testKey, agentId, 'public holidays')).to.deep.equal([]);
  });

  it('refuses a replace that mixes sources, or a file for a web source: 400 with code and param, nothing changed', async () => {
    const agentId = await newAgent(t);
    const created = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agentId, title: 'Parking', text: 'Parking is free behind the station after seven.' },
    });
    const path = `/v1/knowledge/${created.body.id}`;
    const txt = { bytes: buildTxt(['Parking costs two euros.']), filename: 'parking.txt' };
    const cases: [Promise<{ status: number; body: any }>, string, string][] = [
      [
        request('POST', path, {
          key: t.testKey,
          body: { text: 'Both.', file_base64: txt.bytes.toString('base64'), filename: txt.filename },
        }),
        'parameter_invalid',
        'file_base64',
      ],
      [upload(t.testKey, { text: 'Both.' }, txt, {}, path), 'parameter_invalid', 'file'],
      [request('POST', path, { key: t.testKey, body: {} }), 'parameter_missing', 'text'],
      [request('POST', path, { key: t.testKey, body: { filename: 'a.txt' } }), 'parameter_missing', 'file_base64'],
      [
        request('POST', path, { key: t.testKey, body: { file_base64: txt.bytes.toString('base64') } }),
        'parameter_missing',
        'filename',
      ],
      [
        upload(t.testKey, {}, { bytes: Buffer.from('MZ'), filename: 'setup.exe' }, {}, path),
        'file_type_unsupported',
        'file',
      ],
      [request('POST', path, { key: t.testKey, body: { url: 'https://example.com/' } }), 'parameter_unknown', 'url'],
    ];
    for (const [pending, code, param] of cases) {
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error, JSON.stringify(res.body)).to.include({ code, param });
    }
    const after = await request('GET', path, { key: t.testKey });
    expect(after.body, 'nothing changed').to.deep.equal(created.body);

    // A web source is changed by its crawls only (its site here is unreachable: the document stays).
    const web = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agentId, url: 'http://127.0.0.1:9/faq' },
    });
    expect(web.status, JSON.stringify(web.body)).to.equal(200);
    const webPath = `/v1/knowledge/${web.body.id}`;
    let res = await upload(t.testKey, {}, txt, {}, webPath);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'file' });
    expect(res.body.error.message).to.match(/web source/);
    res = await request('POST', webPath, {
      key: t.testKey,
      body: { file_base64: txt.bytes.toString('base64'), filename: txt.filename },
    });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'parameter_invalid', param: 'file_base64' });
    expect((await request('GET', webPath, { key: t.testKey })).body.source).to.deep.include({ type: 'url' });
  });

  it('stops an extraction past its time cap, and the next one still runs', async () => {
    const big = await buildLargePdf(2_000_000, 200);
    try {
      await extractDocument({ bytes: big, filename: 'big.pdf', timeoutMs: 5 });
      expect.fail('the extraction should have been stopped');
    } catch (err) {
      expect(err).to.be.instanceOf(KnowledgeSourceError);
      expect((err as KnowledgeSourceError).code).to.equal('extraction_timeout');
    }
    const doc = await extractDocument({ bytes: buildTxt(['Still working.']), filename: 'after.txt' });
    expect(doc.sections[0].text).to.include('Still working.');
  });
});
