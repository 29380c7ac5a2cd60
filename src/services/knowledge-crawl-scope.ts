/**
 * Which URLs a knowledge crawl may read (src/services/knowledge-crawl.ts):
 *
 * - same site: the host and port of the crawl's first URL (or of the sitemap), `http` and `https` alike
 *   (`www.example.com` and `example.com` are two sites, as robots.txt sees them);
 * - `include` / `exclude`: path patterns matched against a URL's path (`/docs/intro`, no query). A pattern
 *   without `*` is a path prefix (`/docs` matches `/docs`, `/docs/a`, `/docs-old`; write `/docs/` for the
 *   folder only); a pattern with `*` is a glob matched against the whole path: `*` any characters but `/`,
 *   `**` any characters. A URL is in scope when it matches some `include` (or there is none) and no
 *   `exclude`. Globs run as RE2 expressions (`re2js`, linear time); no pattern is a user's regex;
 * - robots.txt: the site's rules for our user agent (`robots-parser`, RFC 9309 matching with `*` and `$`).
 */
import robotsParser from 'robots-parser';
import { RE2JS } from 're2js';
import { CRAWLER_TOKEN } from './knowledge-fetch';

/** A compiled include/exclude pattern. */
type PathMatcher = (path: string) => boolean;

/** Compiles a pattern (see the module's header); the caller has checked it starts with `/`. */
export function pathMatcher(pattern: string): PathMatcher {
  if (!pattern.includes('*')) return (path) => path.startsWith(pattern);
  const source = pattern
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : RE2JS.quote(part)))
    .join('');
  const re = RE2JS.compile(`^${source}$`);
  return (path) => re.matches(path);
}

/** The site key of a URL: host and port. */
export const siteOf = (url: URL) => `${url.hostname}:${url.port}`;

/** Removes a URL's fragment; null for what is not an http(s) URL. */
export function normalizeUrl(href: string, base?: string): string | null {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

/** The rules of one crawl: its site, patterns and robots.txt. */
export class CrawlScope {
  private readonly include: PathMatcher[];
  private readonly exclude: PathMatcher[];
  private readonly robots: ReturnType<typeof robotsParser> | null;

  /**
   * @param site the site's URL (the first page or the sitemap)
   * @param robotsTxt the site's robots.txt text, null when it has none (everything allowed)
   */
  constructor(
    readonly site: URL,
    include: string[],
    exclude: string[],
    robotsTxt: string | null,
  ) {
    this.include = include.map(pathMatcher);
    this.exclude = exclude.map(pathMatcher);
    this.robots = robotsTxt === null ? null : robotsParser(new URL('/robots.txt', site).href, robotsTxt);
  }

  /** True when `url` is on the crawled site. */
  sameSite(url: URL): boolean {
    return siteOf(url) === siteOf(this.site);
  }

  /** True when robots.txt lets our user agent read `url`. */
  allowedByRobots(url: string): boolean {
    if (!this.robots) return true;
    // robots-parser answers undefined for another host: those are never asked (same site only).
    return this.robots.isAllowed(url, CRAWLER_TOKEN) !== false;
  }

  /** True when the include/exclude patterns keep `url`'s path. */
  matchesPatterns(url: URL): boolean {
    const path = url.pathname;
    if (this.include.length && !this.include.some((m) => m(path))) return false;
    return !this.exclude.some((m) => m(path));
  }

  /** Same site, kept by the patterns and allowed by robots.txt. */
  inScope(href: string): boolean {
    const url = new URL(href);
    return this.sameSite(url) && this.matchesPatterns(url) && this.allowedByRobots(href);
  }
}
