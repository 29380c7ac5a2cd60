/**
 * Knowledge from web pages and sites end to end (real API, worker, Temporal dev server and FerretDB)
 * against a loopback site served by a real HTTP server in this file: robots.txt, a sitemap,
 * include/exclude, the SSRF guard on redirects (a redirect to a private or metadata address refused even
 * though the tests allow loopback), a redirect loop, a login wall, a page that never ends, the progress
 * fields, a refresh by the Temporal Schedule that replaces only the changed page, and deletes that remove
 * every chunk and the schedule.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ScheduleNotFoundError } from '@temporalio/client';
import { h, newTenant, request } from '../support/harness';
import { KnowledgeChunk } from '../../src/models/knowledge';
import { KnowledgeCrawl, KnowledgePage } from '../../src/models/knowledge-crawls';
import { CRAWLER_TOKEN } from '../../src/services/knowledge-fetch';
import { KNOWLEDGE_CRAWL_WORKFLOW, refreshScheduleId } from '../../src/shared/knowledge-crawl';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><style>p{}</style></head><body>${body}</body></html>`;

/** The loopback site: its pages (mutable), and every path requested with the User-Agent. */
class Site {
  readonly requests: { path: string; ua: string }[] = [];
  readonly pages = new Map<string, (res: http.ServerResponse) => void>();
  private server!: http.Server;
  base = '';

  page(path: string, title: string, body: string): void {
    this.pages.set(path, (res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(html(title, body));
    });
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const path = new URL(req.url!, 'http://x').pathname;
      this.requests.push({ path, ua: String(req.headers['user-agent']) });
      const handler = this.pages.get(path);
      if (!handler) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        return void res.end('not found');
      }
      handler(res);
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  requested(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }
}

function buildSite(site: Site): void {
  const redirect = (to: () => string) => (res: http.ServerResponse) => {
    res.writeHead(302, { Location: to() });
    res.end();
  };
  site.pages.set('/robots.txt', (res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('User-agent: *\nDisallow: /private/\n');
  });
  const links = [
    '/about',
    '/prices',
    '/private/secret',
    '/login',
    '/slow',
    '/loop',
    '/to-metadata',
    '/to-private',
    '/blog/a',
    '/blog/b',
    '/docs/setup',
    'http://other.invalid/elsewhere',
    'mailto:shop@example.com',
  ];
  site.page(
    '/',
    'Porto Bikes',
    `<nav>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</nav><h1>Welcome</h1><p>Porto Bikes sells and repairs city bicycles near the river.</p>`,
  );
  site.page(
    '/about',
    'About us',
    '<h1>About</h1><p>Our workshop in Porto has repaired bicycles since 1987.</p><h2>Team</h2><p>Ana and Rui fix gears and brakes.</p>',
  );
  site.page('/prices', 'Prices', '<h1>Prices</h1><p>A complete tune-up costs 45 euros and takes one day.</p>');
  site.page('/private/secret', 'Secret', '<p>The safe code is 1234.</p>');
  site.page('/blog/a', 'Blog A', '<h1>Chains</h1><p>Oil your chain every 300 kilometres with a dry lubricant.</p>');
  site.page('/blog/b', 'Blog B', '<h1>Tyres</h1><p>Keep tyres at the pressure printed on their sidewall.</p>');
  site.page('/docs/setup', 'Setup', '<h1>Setup</h1><p>Adjust the saddle height so the knee bends slightly.</p>');
  site.pages.set('/login', (res) => {
    res.writeHead(401, { 'Content-Type': 'text/html', 'WWW-Authenticate': 'Basic realm="shop"' });
    res.end('<p>Log in</p>');
  });
  site.pages.set('/slow', (res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.write('<html><body><p>This page never ends');
    const timer = setInterval(() => res.write(' and on'), 200);
    res.on('close', () => clearInterval(timer));
  });
  site.pages.set(
    '/loop',
    redirect(() => '/loop-2'),
  );
  site.pages.set(
    '/loop-2',
    redirect(() => `${site.base}/loop`),
  );
  site.pages.set(
    '/to-metadata',
    redirect(() => 'http://169.254.169.254/latest/meta-data/'),
  );
  site.pages.set(
    '/to-private',
    redirect(() => 'http://10.0.0.1/admin'),
  );
  site.pages.set('/sitemap.xml', (res) => {
    res.writeHead(200, { 'Content-Type': 'application/xml' });
    res.end(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
        ['/about', '/prices', '/private/secret'].map((p) => `<url><loc>${site.base}${p}</loc></url>`).join('') +
        `<url><loc>http://other.invalid/page</loc></url></urlset>`,
    );
  });
}

interface Doc {
  id: string;
  status: string;
  failure_reason: string | null;
  title: string;
  chunks: number;
  updated: number;
  source: { type: string; url?: string };
  refresh?: string | null;
  crawl?: {
    pages_found: number;
    pages_fetched: number;
    pages_failed: number;
    failures: { url: string; reason: string }[];
    running: boolean;
    last_crawled: number | null;
  };
}

async function create(t: Tenant, body: Record<string, unknown>) {
  return request('POST', '/v1/knowledge', { key: t.testKey, body: { agent_id: t.agentId, ...body } });
}

/** Polls the document until `until` holds (default: its crawl finished). */
async function waitDoc(
  t: Tenant,
  id: string,
  until: (d: Doc) => boolean = (d) => d.status !== 'processing' && !d.crawl?.running,
) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await request('GET', `/v1/knowledge/${id}`, { key: t.testKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    if (until(res.body)) return res.body as Doc;
    if (Date.now() > deadline) throw new Error(`document ${id} never got there: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function chunksByUrl(kdocId: string) {
  const rows = await KnowledgeChunk.find({ kdoc_id: kdocId }).sort({ _id: 1 }).lean();
  const byUrl = new Map<string, { text: string; content_hash: string; heading: string | null }[]>();
  for (const r of rows)
    byUrl.set(r.url!, [
      ...(byUrl.get(r.url!) ?? []),
      { text: r.text, content_hash: r.content_hash!, heading: r.heading ?? null },
    ]);
  return byUrl;
}

async function search(t: Tenant, query: string) {
  const res = await request('GET', `/v1/knowledge/search?agent_id=${t.agentId}&query=${encodeURIComponent(query)}`, {
    key: t.testKey,
  });
  expect(res.status).to.equal(200);
  return res.body.data as { document: string; text: string }[];
}

describe('knowledge from web pages and sites', function () {
  const site = new Site();
  let t: Tenant;
  let crawled: Doc;

  before(async () => {
    buildSite(site);
    await site.start();
    t = await newTenant();
  });
  after(() => site.stop());

  it('crawls the site breadth-first: robots.txt, exclude, refused redirects, a loop, a login wall, a page that never ends', async () => {
    const res = await create(t, {
      crawl: { url: `${site.base}/`, max_pages: 20, exclude: ['/blog/b'] },
      refresh: 'daily',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: 'processing', chunks: 0, refresh: 'daily', failure_reason: null });
    expect(res.body.source).to.deep.equal({ type: 'crawl', url: `${site.base}/` });
    crawled = await waitDoc(t, res.body.id);

    expect(crawled.status).to.equal('ready');
    expect(crawled.title).to.equal('Porto Bikes');
    const reasons = new Map(crawled.crawl!.failures.map((f) => [new URL(f.url).pathname, f.reason]));
    expect([...reasons.keys()].sort()).to.deep.equal(['/login', '/loop', '/slow', '/to-metadata', '/to-private']);
    expect(reasons.get('/login')).to.match(/HTTP 401/);
    expect(reasons.get('/loop')).to.match(/Redirect loop/);
    expect(reasons.get('/slow')).to.match(/did not arrive within 2 s/);
    expect(reasons.get('/to-metadata')).to.match(/169\.254\.169\.254.*metadata/);
    expect(reasons.get('/to-private')).to.match(/10\.0\.0\.1.*private/);
    // Found: /, about, prices, login, slow, loop, to-metadata, to-private, blog/a, docs/setup (not the
    // robots-disallowed, excluded, off-site or mailto links).
    expect(crawled.crawl).to.include({ pages_found: 10, pages_fetched: 5, pages_failed: 5, running: false });
    expect(crawled.crawl!.last_crawled).to.be.a('number');

    expect(site.requested('/private/secret'), 'disallowed by robots.txt').to.equal(0);
    expect(site.requested('/blog/b'), 'excluded').to.equal(0);
    expect(site.requested('/robots.txt')).to.equal(1);
    expect(new Set(site.requests.map((r) => r.ua.split(' ')[0]))).to.deep.equal(new Set([`${CRAWLER_TOKEN}/1.0`]));

    const byUrl = await chunksByUrl(crawled.id);
    expect([...byUrl.keys()].map((u) => new URL(u).pathname).sort()).to.deep.equal([
      '/',
      '/about',
      '/blog/a',
      '/docs/setup',
      '/prices',
    ]);
    expect(byUrl.get(`${site.base}/about`)!.map((c) => c.heading)).to.include('About');
    expect(crawled.chunks).to.equal([...byUrl.values()].flat().length);
    const hits = await search(t, 'tune-up price euros');
    expect(hits[0]).to.include({ document: crawled.id });
    expect(hits[0].text).to.contain('45 euros');
    expect(await KnowledgePage.countDocuments({ kdoc_id: crawled.id }), 'staged pages removed').to.equal(0);
  });

  it('reads the pages a sitemap lists on its site, and keeps only the included paths of a crawl', async () => {
    const fromSitemap = await create(t, { sitemap_url: `${site.base}/sitemap.xml` });
    expect(fromSitemap.status, JSON.stringify(fromSitemap.body)).to.equal(200);
    const included = await create(t, { crawl: { url: `${site.base}/`, include: ['/docs/*'] } });
    expect(included.status, JSON.stringify(included.body)).to.equal(200);

    const sitemapDoc = await waitDoc(t, fromSitemap.body.id);
    expect(sitemapDoc).to.include({ status: 'ready' });
    expect(sitemapDoc.crawl).to.include({ pages_found: 2, pages_fetched: 2, pages_failed: 0 });
    expect([...(await chunksByUrl(sitemapDoc.id)).keys()].sort()).to.deep.equal([
      `${site.base}/about`,
      `${site.base}/prices`,
    ]);

    const includedDoc = await waitDoc(t, included.body.id);
    expect([...(await chunksByUrl(includedDoc.id)).keys()].sort()).to.deep.equal([
      `${site.base}/`,
      `${site.base}/docs/setup`,
    ]);
    expect(site.requested('/private/secret')).to.equal(0);
  });

  it('continues as new past the pages of one run, carrying its frontier, and commits the same pages', async () => {
    const res = await create(t, { crawl: { url: `${site.base}/`, max_pages: 7, exclude: ['/slow', '/login'] } });
    const first = await waitDoc(t, res.body.id);
    const before = await chunksByUrl(first.id);
    const handle = await h().env.client.workflow.start(KNOWLEDGE_CRAWL_WORKFLOW, {
      workflowId: `knowledge-crawl-runs:${first.id}`,
      taskQueue: h().taskQueue,
      args: [{ kdocId: first.id, pagesPerRun: 2 }],
    });
    expect(await handle.result()).to.deep.equal({ status: 'ready', pages: first.crawl!.pages_fetched });
    const history = await h()
      .env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId)
      .fetchHistory();
    expect(history.events!.at(-1)!.workflowExecutionContinuedAsNewEventAttributes).to.not.equal(undefined);
    const after = await waitDoc(t, first.id);
    expect(after.crawl).to.deep.include({ pages_found: 7, pages_fetched: first.crawl!.pages_fetched });
    expect(await chunksByUrl(first.id)).to.deep.equal(before);
  });

  it('one page: ready with its chunks; a page behind a login: failed with the reason', async () => {
    const one = await create(t, { url: `${site.base}/about` });
    const wall = await create(t, { url: `${site.base}/login` });
    const ok = await waitDoc(t, one.body.id);
    expect(ok).to.include({ status: 'ready', title: 'About us' });
    expect(ok.source).to.deep.equal({ type: 'url', url: `${site.base}/about` });
    expect(ok.chunks).to.be.greaterThan(0);
    const failed = await waitDoc(t, wall.body.id);
    expect(failed).to.include({ status: 'failed', chunks: 0 });
    expect(failed.failure_reason).to.match(/No page could be read: HTTP 401/);
  });

  it('refuses bad web sources with a clear error', async () => {
    const both = await create(t, { url: `${site.base}/`, sitemap_url: `${site.base}/sitemap.xml` });
    expect(both.status).to.equal(400);
    expect(both.body.error).to.include({ code: 'parameter_invalid', param: 'sitemap_url' });
    const privateUrl = await create(t, { url: 'http://10.0.0.1/' });
    expect(privateUrl.status).to.equal(400);
    expect(privateUrl.body.error).to.include({ code: 'url_private_address', param: 'url' });
    const pattern = await create(t, { crawl: { url: `${site.base}/`, include: ['docs'] } });
    expect(pattern.status).to.equal(400);
    const tooMany = await create(t, { crawl: { url: `${site.base}/`, max_pages: 501 } });
    expect(tooMany.status).to.equal(400);
    const ftp = await create(t, { url: 'ftp://example.com/file' });
    expect(ftp.status).to.equal(400);
    const replace = await request('POST', `/v1/knowledge/${crawled.id}`, { key: t.testKey, body: { text: 'x y z' } });
    expect(replace.status).to.equal(400);
  });

  it('a refresh by the schedule replaces the changed page, drops the vanished one and copies the rest', async () => {
    const before = await chunksByUrl(crawled.id);
    const finished = (await KnowledgeCrawl.findById(crawled.id).lean())!.finished_ms!;
    site.page('/prices', 'Prices', '<h1>Prices</h1><p>A complete tune-up now costs 55 euros and takes two days.</p>');
    site.pages.delete('/blog/a');
    await h().env.client.schedule.getHandle(refreshScheduleId(crawled.id)).trigger();
    for (const deadline = Date.now() + 30_000; ;) {
      const row = (await KnowledgeCrawl.findById(crawled.id).lean())!;
      if (row.finished_ms! > finished && row.run_id === null) break;
      if (Date.now() > deadline) throw new Error(`the refresh never ended: ${JSON.stringify(row)}`);
      await new Promise((r) => setTimeout(r, 150));
    }
    const doc = await waitDoc(t, crawled.id);
    expect(doc.status).to.equal('ready');
    const now = await chunksByUrl(crawled.id);
    const prices = `${site.base}/prices`;
    expect(now.get(prices)![0].content_hash).to.not.equal(before.get(prices)![0].content_hash);
    expect(now.get(prices)![0].text).to.contain('55 euros');
    expect(now.has(`${site.base}/blog/a`), 'vanished page removed').to.equal(false);
    for (const path of ['/', '/about', '/docs/setup'])
      expect(now.get(`${site.base}${path}`), path).to.deep.equal(before.get(`${site.base}${path}`));
    const hits = (await search(t, 'tune-up euros')).filter((x) => x.document === crawled.id);
    expect(hits.map((x) => x.text).join(' '))
      .to.contain('55 euros')
      .and.not.contain('45 euros and takes one day');
  });

  it('deleting the document deletes every chunk and its schedule; deleting an agent does too', async () => {
    const del = await request('DELETE', `/v1/knowledge/${crawled.id}`, { key: t.testKey });
    expect(del.status).to.equal(200);
    expect(await KnowledgeChunk.countDocuments({ kdoc_id: crawled.id })).to.equal(0);
    expect(await KnowledgeCrawl.countDocuments({ _id: crawled.id })).to.equal(0);
    let err: unknown;
    await h()
      .env.client.schedule.getHandle(refreshScheduleId(crawled.id))
      .describe()
      .catch((e) => (err = e));
    expect(err).to.be.instanceOf(ScheduleNotFoundError);

    const agent = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Web agent', instructions: 'Help.' },
    });
    const weekly = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: agent.body.id, url: `${site.base}/about`, refresh: 'weekly' },
    });
    expect(weekly.status, JSON.stringify(weekly.body)).to.equal(200);
    const described = await h().env.client.schedule.getHandle(refreshScheduleId(weekly.body.id)).describe();
    expect(described.spec.intervals?.[0]?.every).to.equal(7 * 24 * 3600 * 1000);
    await waitDoc(t, weekly.body.id);
    expect((await request('DELETE', `/v1/agents/${agent.body.id}`, { key: t.testKey })).status).to.equal(200);
    err = undefined;
    await h()
      .env.client.schedule.getHandle(refreshScheduleId(weekly.body.id))
      .describe()
      .catch((e) => (err = e));
    expect(err).to.be.instanceOf(ScheduleNotFoundError);
    expect(await KnowledgeChunk.countDocuments({ kdoc_id: weekly.body.id })).to.equal(0);
  });
});
