/**
 * Knowledge from web pages and sites: the work of the crawl workflow's activities
 * (src/workflows/knowledge-crawl.ts, src/activities/knowledge-crawl.ts). A document's source is one page
 * (`url`), the pages a sitemap lists (`sitemap_url`, same site), or a breadth-first crawl from a page
 * (`crawl: {url, max_pages, include, exclude}`); scope rules in ./knowledge-crawl-scope.ts, fetch guards
 * (SSRF, redirects, size and time caps) in ./knowledge-fetch.ts.
 *
 * - robots.txt (RFC 9309) is read once per crawl: a 4xx means no rules, a 5xx or an unreachable file
 *   means the site is not crawled (the RFC's "complete disallow"); disallowed links are never fetched
 *   (nor counted), a disallowed first page is a failure.
 * - A page is HTML (`text/html`, `application/xhtml+xml`) answered 2xx; else it fails with a reason
 *   (401/403: behind a login). Its text is extracted (./knowledge-extract.ts), hashed (sha256), and staged
 *   as a `KnowledgePage` row until the commit.
 * - The commit builds the next revision: each staged page's chunks, copied from the current revision when
 *   the page's `content_hash` is unchanged (text, heading, url, hash and any stored embedding kept), else
 *   chunked anew (`chunkText`, per heading section); a page that failed for a passing reason (timeout,
 *   network, 5xx, 429) keeps its previous chunks; other pages that are gone are dropped. The revision row,
 *   written last, switches every search to the new content at once. No page read: the first crawl is
 *   `failed`, a refresh keeps the content it had.
 */
import { createHash } from 'node:crypto';
import { parseHTML } from 'linkedom';
import { KnowledgeCrawl, KnowledgePage, type KnowledgeCrawlDoc } from '../models/knowledge-crawls';
import { KnowledgeDocument, KnowledgeRevision } from '../models/knowledge';
import type { WithId } from '../models/store';
import {
  MAX_KEPT_FAILURES,
  type CrawlBeginning,
  type CrawlFailure,
  type CrawlPageOutcome,
  type CrawlResult,
} from '../shared/knowledge-crawl';
import { CrawlScope, normalizeUrl } from './knowledge-crawl-scope';
import { fetchForCrawl, type FetchFailure, type FetchedResource } from './knowledge-fetch';
import { extractDocument, KnowledgeSourceError } from './knowledge-extract';
import { chunkText, commitRevision, currentRevisions, revisionChunks, type ChunkInput } from './knowledge';

/** Bytes of a robots.txt read (Google reads 500 KiB), of a sitemap (the sitemaps.org limit is 50 MB). */
const MAX_ROBOTS_BYTES = 512 * 1024;
const MAX_SITEMAP_BYTES = 10 * 1024 * 1024;
/** Sitemaps of a sitemap index read at most. */
const MAX_CHILD_SITEMAPS = 20;
/** Links taken from one page at most. */
const MAX_LINKS_PER_PAGE = 2_000;

type CrawlRow = WithId<KnowledgeCrawlDoc>;

const isLive = async (kdocId: string) => Boolean(await KnowledgeDocument.exists({ _id: kdocId, deleted_ms: null }));

/** The crawl's scope (site, patterns, robots.txt as read by `beginCrawl`). */
const scopeOf = (row: CrawlRow) => new CrawlScope(new URL(row.url), row.include, row.exclude, row.robots_txt ?? null);

/** Fetches the site's robots.txt: its text, null when it has none (4xx), or the failure that stops the crawl. */
async function readRobots(site: URL): Promise<{ text: string | null } | { failure: string }> {
  const url = new URL('/robots.txt', site).href;
  const res = await fetchForCrawl(url, { maxBytes: MAX_ROBOTS_BYTES, sameSite: (u) => u.host === site.host });
  if (!res.ok) {
    if (res.code === 'off_site_redirect') return { text: null };
    return { failure: `robots.txt could not be read (${res.reason}): the site is not crawled.` };
  }
  if (res.status >= 200 && res.status < 300) return { text: res.body.toString('utf8') };
  if (res.status >= 400 && res.status < 500) return { text: null };
  return { failure: `robots.txt answered HTTP ${res.status}: the site is not crawled.` };
}

/** The page URLs of a sitemap (`<urlset>`), following a sitemap index one level; in order, deduplicated. */
async function sitemapUrls(row: CrawlRow, scope: CrawlScope): Promise<{ urls: string[]; failures: CrawlFailure[] }> {
  const failures: CrawlFailure[] = [];
  const locs = (xml: string) =>
    [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) =>
      m[1]
        .trim()
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'"),
    );
  const read = async (url: string): Promise<string | null> => {
    const res = await fetchForCrawl(url, { maxBytes: MAX_SITEMAP_BYTES, sameSite: (u) => scope.sameSite(u) });
    const failure = pageFailure(res);
    if (failure) {
      failures.push({ url, reason: `Sitemap: ${failure.reason}` });
      return null;
    }
    return (res as FetchedResource).body.toString('utf8');
  };
  const root = await read(row.url);
  if (root === null) return { urls: [], failures };
  let pages = locs(root);
  if (/<sitemapindex[\s>]/.test(root)) {
    pages = [];
    for (const child of locs(root).slice(0, MAX_CHILD_SITEMAPS)) {
      const href = normalizeUrl(child);
      if (!href || !scope.sameSite(new URL(href))) continue;
      const xml = await read(href);
      if (xml !== null) pages.push(...locs(xml));
      if (pages.length >= row.max_pages * 4) break;
    }
  }
  const urls: string[] = [];
  for (const page of pages) {
    const href = normalizeUrl(page);
    if (!href || urls.includes(href) || !scope.inScope(href)) continue;
    urls.push(href);
    if (urls.length >= row.max_pages) break;
  }
  if (urls.length === 0 && failures.length === 0)
    failures.push({ url: row.url, reason: 'The sitemap lists no page of the site in scope.' });
  return { urls, failures };
}

/**
 * The first activity of a crawl: marks run `runId` as the running one (progress reset), reads robots.txt
 * and answers the first URLs: the page (`url`, `crawl`) or the sitemap's pages. Idempotent.
 * @returns `live: false` when the document was deleted
 */
export async function beginCrawl(kdocId: string, runId: string): Promise<CrawlBeginning> {
  const row = (await KnowledgeCrawl.findById(kdocId).lean()) as CrawlRow | null;
  if (!row || !(await isLive(kdocId))) return { live: false };
  const site = new URL(row.url);
  const robots = await readRobots(site);
  const robotsTxt = 'text' in robots ? robots.text : null;
  await KnowledgeCrawl.updateOne(
    { _id: kdocId },
    {
      $set: {
        run_id: runId,
        robots_txt: robotsTxt,
        started_ms: Date.now(),
        pages_found: 0,
        pages_fetched: 0,
        pages_failed: 0,
        failures: [],
      },
    },
  );
  const previous = await previousUrls(kdocId);
  if ('failure' in robots)
    return {
      live: true,
      maxPages: row.max_pages,
      urls: [],
      failures: [{ url: row.url, reason: robots.failure }],
      kept: previous,
    };
  const scope = new CrawlScope(site, row.include, row.exclude, robotsTxt);
  if (row.mode === 'sitemap')
    return { live: true, maxPages: row.max_pages, kept: [], ...(await sitemapUrls(row, scope)) };
  if (!scope.allowedByRobots(row.url))
    return {
      live: true,
      maxPages: row.max_pages,
      urls: [],
      failures: [{ url: row.url, reason: 'Disallowed by robots.txt.' }],
      kept: [],
    };
  return { live: true, maxPages: row.mode === 'url' ? 1 : row.max_pages, urls: [row.url], failures: [], kept: [] };
}

/** The URLs of the document's current chunks (what a crawl that reads nothing keeps). */
async function previousUrls(kdocId: string): Promise<string[]> {
  const current = (await currentRevisions([kdocId])).get(kdocId);
  if (!current) return [];
  return [...new Set((await revisionChunks(current._id)).map((c) => c.url).filter((u): u is string => Boolean(u)))];
}

/** A fetch answer that is no usable HTML page, as a failure (null for a usable one). */
function pageFailure(res: FetchedResource | FetchFailure): { reason: string; transient: boolean } | null {
  if (!res.ok) return { reason: res.reason, transient: res.code === 'timeout' || res.code === 'network_error' };
  if (res.status === 401 || res.status === 403)
    return { reason: `HTTP ${res.status}: the page is behind a login or forbidden.`, transient: false };
  if (res.status < 200 || res.status >= 300)
    return { reason: `HTTP ${res.status}.`, transient: res.status >= 500 || res.status === 429 };
  return null;
}

/** The in-scope links of an HTML page (absolute, without fragment, deduplicated, at most `MAX_LINKS_PER_PAGE`). */
function pageLinks(html: string, pageUrl: string, scope: CrawlScope): string[] {
  const { document } = parseHTML(html) as unknown as {
    document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> };
  };
  const base = normalizeUrl(document.querySelectorAll('base[href]')[0]?.getAttribute('href') ?? '', pageUrl) ?? pageUrl;
  const links = new Set<string>();
  for (const a of Array.from(document.querySelectorAll('a[href]'))) {
    const href = normalizeUrl(a.getAttribute('href') ?? '', base);
    if (href && !links.has(href) && scope.inScope(href)) links.add(href);
    if (links.size >= MAX_LINKS_PER_PAGE) break;
  }
  return [...links];
}

/** A page's answer once its document is deleted. */
const GONE: CrawlPageOutcome = { ok: false, gone: true, reason: 'The document was deleted.', transient: false };

const pageId = (runId: string, n: number) => `${runId}:${String(n).padStart(5, '0')}`;

/**
 * Reads page `n` of crawl `runId`: fetch (./knowledge-fetch.ts), HTML check, extraction, staged as a
 * `KnowledgePage` row (replaced on a retry: idempotent). Never throws for the site's faults.
 * @returns the page's in-scope links (`crawl` mode; none otherwise), a failure with its reason, or `gone`
 *   when the document was deleted, before or while the page was read (then no row of it stays staged)
 */
export async function crawlPage(kdocId: string, runId: string, url: string, n: number): Promise<CrawlPageOutcome> {
  const row = (await KnowledgeCrawl.findById(kdocId).lean()) as CrawlRow | null;
  if (!row || !(await isLive(kdocId))) return GONE;
  const scope = scopeOf(row);
  if (!scope.allowedByRobots(url)) return { ok: false, reason: 'Disallowed by robots.txt.', transient: false };
  const res = await fetchForCrawl(url, { sameSite: (u) => scope.sameSite(u) });
  const failure = pageFailure(res);
  if (failure) return { ok: false, ...failure };
  const page = res as FetchedResource;
  const type = page.contentType ?? 'none';
  if (!/^(text\/html|application\/xhtml\+xml)\b/i.test(type))
    return { ok: false, reason: `Not an HTML page (content type ${type}).`, transient: false };
  let extracted;
  try {
    extracted = await extractDocument({ bytes: page.body, contentType: type, url: page.url });
  } catch (err) {
    if (err instanceof KnowledgeSourceError) return { ok: false, reason: err.message, transient: false };
    throw err;
  }
  const sections = extracted.sections.map((s) => ({ heading: s.heading, text: s.text }));
  const text = sections.map((s) => `${s.heading ?? ''}\n${s.text}`).join('\n\n');
  await KnowledgePage.replaceOne(
    { _id: pageId(runId, n) },
    {
      kdoc_id: kdocId,
      revision_id: runId,
      n,
      url,
      title: extracted.title,
      content_hash: createHash('sha256').update(text).digest('hex'),
      sections,
      characters: sections.reduce((sum, s) => sum + s.text.length, 0),
    },
    { upsert: true },
  );
  // Checked after the write: a delete that ran before it is seen here (the row is removed again), one
  // after it removes the row itself (src/services/knowledge.ts `deleteKnowledgeDocument`).
  if (!(await isLive(kdocId))) {
    await KnowledgePage.deleteOne({ _id: pageId(runId, n) });
    return GONE;
  }
  return { ok: true, links: row.mode === 'crawl' ? pageLinks(page.body.toString('utf8'), page.url, scope) : [] };
}

/** Progress of a crawl as the workflow counts it. */
export interface CrawlProgress {
  found: number;
  fetched: number;
  failed: number;
  failures: CrawlFailure[];
}

const progressSet = (p: CrawlProgress) => ({
  pages_found: p.found,
  pages_fetched: p.fetched,
  pages_failed: p.failed,
  failures: p.failures.slice(0, MAX_KEPT_FAILURES),
});

/** Records the progress of run `runId` (absolute numbers: a retry writes the same); nothing when another run took over. */
export async function recordCrawlProgress(kdocId: string, runId: string, progress: CrawlProgress): Promise<void> {
  await KnowledgeCrawl.updateOne({ _id: kdocId, run_id: runId }, { $set: progressSet(progress) });
}

/**
 * The chunks of the next revision (see the module's header): staged pages in crawl order, each copied
 * from `previous` when its content hash is unchanged, then the previous chunks of `kept` pages.
 */
export function nextChunks(
  pages: { url: string; content_hash: string; sections: { heading?: string | null; text?: string | null }[] }[],
  previous: ChunkInput[],
  kept: string[],
): ChunkInput[] {
  const byUrl = new Map<string, ChunkInput[]>();
  for (const c of previous) if (c.url) byUrl.set(c.url, [...(byUrl.get(c.url) ?? []), c]);
  const chunks: ChunkInput[] = [];
  const done = new Set<string>();
  for (const page of pages) {
    if (done.has(page.url)) continue;
    done.add(page.url);
    const before = byUrl.get(page.url);
    if (before?.length && before.every((c) => c.content_hash === page.content_hash)) {
      chunks.push(...before);
      continue;
    }
    for (const s of page.sections)
      for (const text of chunkText(s.text ?? ''))
        chunks.push({ text, heading: s.heading ?? null, url: page.url, content_hash: page.content_hash });
  }
  for (const url of kept) if (!done.has(url)) chunks.push(...(byUrl.get(url) ?? []));
  return chunks;
}

/**
 * The last activity of a crawl: commits the staged pages of run `runId` as revision `revisionId` (or
 * keeps the content when none was read), sets the status and final progress, removes the staged rows.
 * Idempotent: a retry after the revision was written only finishes the bookkeeping; one in the middle of
 * the chunks' write keeps what was stored (`writeRevision`). `onChunks` hears the chunks stored so far.
 */
export async function commitCrawl(
  kdocId: string,
  runId: string,
  revisionId: string,
  progress: CrawlProgress & { kept: string[] },
  onChunks?: (stored: number) => void,
): Promise<CrawlResult> {
  const row = (await KnowledgeCrawl.findById(kdocId).lean()) as CrawlRow | null;
  const doc = await KnowledgeDocument.findOne({ _id: kdocId, deleted_ms: null }).lean();
  if (!row || !doc) {
    await KnowledgePage.deleteMany({ kdoc_id: kdocId });
    return { status: 'deleted', pages: 0 };
  }
  const committed = await KnowledgeRevision.exists({ _id: revisionId });
  const pages = await KnowledgePage.find({ revision_id: runId }).sort({ n: 1 }).lean();
  const current = (await currentRevisions([kdocId])).get(kdocId);
  let status: 'ready' | 'failed' = 'ready';
  let reason: string | null = null;
  if (!committed && pages.length > 0) {
    const chunks = nextChunks(pages, current ? await revisionChunks(current._id) : [], progress.kept);
    const title = row.title ?? pages.find((p) => p.title)?.title ?? current?.title ?? row.url;
    const characters = chunks.reduce((sum, c) => sum + c.text.length, 0);
    const live = await commitRevision(
      { kdocId, agentId: doc.agent_id, revisionId, title: title.slice(0, 500), characters },
      chunks,
      onChunks,
    );
    if (!live) return { status: 'deleted', pages: 0 };
  } else if (!committed && (row.status !== 'ready' || !current?.chunks)) {
    status = 'failed';
    reason = `No page could be read: ${progress.failures[0]?.reason ?? 'no page was found.'}`;
  }
  await KnowledgeCrawl.updateOne(
    { _id: kdocId, run_id: runId },
    {
      $set: {
        ...progressSet(progress),
        status,
        failure_reason: reason,
        run_id: null,
        finished_ms: Date.now(),
      },
    },
  );
  await KnowledgePage.deleteMany({ kdoc_id: kdocId, revision_id: { $lte: runId } });
  return { status, pages: pages.length };
}
