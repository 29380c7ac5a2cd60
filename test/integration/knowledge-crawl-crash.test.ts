/**
 * A knowledge crawl survives its worker's death, and a page read while its document is deleted leaves
 * nothing staged (src/workflows/knowledge-crawl.ts, src/services/knowledge-crawl.ts).
 *
 * The crawl runs on a worker in its own process (test/support/worker-process.ts) against a loopback site
 * whose pages answer after `PAGE_DELAY_MS`. While the third batch of pages is being read, the worker is
 * killed (SIGKILL) and a new one started: the page activities heartbeat, so their retries reach the site
 * within seconds (the heartbeat timeout, 5 s), not after the 2-minute start-to-close timeout, and the crawl
 * ends with every page fetched, counted and committed exactly once.
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { KnowledgeChunk, KnowledgeRevision } from '../../src/models/knowledge';
import { KnowledgePage } from '../../src/models/knowledge-crawls';
import { crawlPage } from '../../src/services/knowledge-crawl';
import { newTenant, request, startWorkerProcess, stopWorkerProcess } from '../support/harness';
import { eventually, sleep } from '../support/conversations';

/** How long each page of the slow site takes to answer (ms). */
const PAGE_DELAY_MS = 1_500;
/** Pages linked from the home page (12 pages in all: batches of 4 after the home page). */
const LINKED = 11;

/** A loopback site: `/` links to `/p1`…`/p11`, each page answers after `PAGE_DELAY_MS`; `/held` waits for `release()`. */
class SlowSite {
  readonly requests: { path: string; at: number }[] = [];
  private readonly held: (() => void)[] = [];
  private server!: http.Server;
  base = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const path = new URL(req.url!, 'http://x').pathname;
      this.requests.push({ path, at: Date.now() });
      const page = (title: string, body: string) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`);
      };
      if (path === '/held') return void this.held.push(() => page('Held', '<p>The held page about ferries.</p>'));
      const m = /^\/(?:p(\d+))?$/.exec(path);
      if (!m || Number(m[1] ?? 0) > LINKED) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        return void res.end('not found');
      }
      const links = Array.from({ length: LINKED }, (_, i) => `<a href="/p${i + 1}">page ${i + 1}</a>`).join(' ');
      setTimeout(() => {
        if (res.destroyed) return;
        if (!m[1]) page('Harbour guide', `<nav>${links}</nav><p>Welcome to the harbour guide.</p>`);
        else page(`Pier ${m[1]}`, `<h1>Pier ${m[1]}</h1><p>${phrase(Number(m[1]))}</p>`);
      }, PAGE_DELAY_MS);
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  release(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  times(path: string): number[] {
    return this.requests.filter((r) => r.path === path).map((r) => r.at);
  }
}

/** The text of page `/p<n>`: unique to it. */
const phrase = (n: number) => `Pier ${n} serves the ferry line number ${n * 7} every morning.`;

describe('knowledge crawl: a worker killed mid-crawl, a page read while its document is deleted', function () {
  this.timeout(240_000);
  const site = new SlowSite();
  let child: ChildProcess | undefined;
  let saved: ReturnType<typeof config>; // the harness's configuration, restored after each test

  before(async () => {
    saved = config();
    await site.start();
  });
  after(async () => {
    setConfig(saved);
    await stopWorkerProcess(child, 'SIGTERM');
    await site.stop();
  });

  const startWorker = (queue: string) =>
    startWorkerProcess(queue, { KNOWLEDGE_CRAWL_ALLOW_LOOPBACK: '1', KNOWLEDGE_CRAWL_PAGE_TIMEOUT_MS: '10000' });

  it('retries the pages in flight on a new worker within seconds, and commits every page exactly once', async () => {
    const t = await newTenant();
    const queue = `svc-test-crawl-crash-${crypto.randomBytes(4).toString('hex')}`;
    setConfig({ ...saved, taskQueue: queue }); // the crawl started now runs on the child's queue only
    child = await startWorker(queue);
    const created = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: t.agentId, crawl: { url: `${site.base}/`, max_pages: 20 } },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.id as string;

    // Batches: `/`, then /p1–/p4, then /p5–/p8: the worker dies while the third is being read.
    const third = ['/p5', '/p6', '/p7', '/p8'];
    await eventually(async () => third.every((p) => site.times(p).length > 0), 'the third batch under way', 60_000);
    const killedAt = Date.now();
    await stopWorkerProcess(child, 'SIGKILL');
    const stagedAtKill = await KnowledgePage.countDocuments({ kdoc_id: id });
    child = await startWorker(queue);
    await eventually(async () => third.some((p) => site.times(p).length > 1), 'a retried page', 60_000);
    const retryAfterMs = Math.min(...third.map((p) => site.times(p)[1] ?? Infinity)) - killedAt;

    const doc = await eventually(
      async () => {
        const res = await request('GET', `/v1/knowledge/${id}`, { key: t.testKey });
        return res.body.status !== 'processing' && !res.body.crawl?.running ? res.body : undefined;
      },
      'the crawl finished',
      90_000,
    );
    const endedAfterMs = Date.now() - killedAt;
    console.log(
      `      (killed with ${stagedAtKill} pages staged; the pages in flight retried ${retryAfterMs} ms after the kill; crawl ended ${endedAfterMs} ms after it)`,
    );
    expect(stagedAtKill, 'the first two batches staged before the kill').to.equal(5);
    expect(retryAfterMs, 'retried after the heartbeat timeout, not the start-to-close timeout').to.be.below(30_000);

    expect(doc.status, JSON.stringify(doc)).to.equal('ready');
    expect(doc.crawl).to.include({ pages_found: 12, pages_fetched: 12, pages_failed: 0, running: false });
    expect(doc.crawl.failures).to.deep.equal([]);
    // Pages read before the kill are not read again; the four in flight were read twice (killed, retried).
    for (const path of ['/', '/p1', '/p2', '/p3', '/p4', '/p9', '/p10', '/p11'])
      expect(site.times(path), path).to.have.length(1);
    for (const path of third) expect(site.times(path), path).to.have.length(2);

    const rows = await KnowledgeChunk.find({ kdoc_id: id }).lean();
    expect(new Set(rows.map((r) => r._id)).size).to.equal(rows.length);
    expect(new Set(rows.map((r) => r.revision_id)).size, 'one revision').to.equal(1);
    expect(await KnowledgeRevision.countDocuments({ kdoc_id: id })).to.equal(1);
    const byUrl = new Map<string, string[]>();
    for (const r of rows) byUrl.set(r.url!, [...(byUrl.get(r.url!) ?? []), r.text]);
    const expected = ['/', ...Array.from({ length: LINKED }, (_, i) => `/p${i + 1}`)].map((p) => `${site.base}${p}`);
    expect([...byUrl.keys()].sort()).to.deep.equal(expected.sort());
    for (let n = 1; n <= LINKED; n++) {
      const texts = byUrl.get(`${site.base}/p${n}`)!;
      expect(texts, `/p${n} committed once`).to.have.length(1);
      expect(texts[0]).to.contain(phrase(n));
    }
    expect(doc.chunks).to.equal(rows.length);
    expect(await KnowledgePage.countDocuments({ kdoc_id: id }), 'staged pages removed').to.equal(0);
    setConfig(saved);
  });

  it('a page read while its document is deleted is not left staged', async () => {
    setConfig(saved);
    const t = await newTenant();
    const created = await request('POST', '/v1/knowledge', {
      key: t.testKey,
      body: { agent_id: t.agentId, url: `${site.base}/held` },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.id as string;
    await eventually(async () => site.times('/held').length >= 1, "the crawl's own page request");
    // A second reader of the same page (as a retried attempt would be), under way when the delete comes.
    const reading = crawlPage(id, 'krev_test_deleted_meanwhile', `${site.base}/held`, 0);
    await eventually(async () => site.times('/held').length >= 2, 'the second page request');
    const del = await request('DELETE', `/v1/knowledge/${id}`, { key: t.testKey });
    expect(del.status).to.equal(200);
    site.release();
    expect(await reading).to.deep.include({ ok: false, gone: true });
    await sleep(1_000); // the crawl's own page activity (its workflow terminated) finished meanwhile
    expect(await KnowledgePage.countDocuments({ kdoc_id: id })).to.equal(0);
    expect(await KnowledgeChunk.countDocuments({ kdoc_id: id })).to.equal(0);
  });
});
