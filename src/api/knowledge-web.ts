/**
 * The web sources of `POST /v1/knowledge` (`url`, `sitemap_url`, `crawl`, `refresh`): their request
 * fields and their check, the SSRF guard included (src/providers/webhook-address.ts), for
 * src/api/knowledge.ts. The crawl itself: src/services/knowledge-sources.ts and src/workflows/knowledge-crawl.ts.
 */
import { z } from 'zod';
import { config } from '../config';
import { ApiError, invalidParam } from '../errors';
import { resolveWebhookHost, WebhookAddressError } from '../providers/webhook-address';
import type { WebSource } from '../services/knowledge-sources';
import { CRAWL_LIMITS } from '../shared/knowledge-crawl';

const webUrl = z.string().min(1).max(2048, 'must be at most 2,048 characters');
const pathPatterns = z
  .array(z.string().max(CRAWL_LIMITS.maxPatternCharacters).regex(/^\//, 'must be a path starting with /'))
  .max(CRAWL_LIMITS.maxPatterns);

/** The web source fields of the create body (one of them instead of `text` or a file). */
export const webSourceFields = {
  url: webUrl.optional().meta({ description: 'One web page (http or https) to read.' }),
  sitemap_url: webUrl
    .optional()
    .meta({ description: 'A sitemap (or sitemap index): the pages it lists on its own site.' }),
  crawl: z
    .strictObject({
      url: webUrl.meta({ description: 'The first page; links are followed on its site (same host and port).' }),
      max_pages: z
        .int()
        .min(1)
        .max(CRAWL_LIMITS.maxMaxPages)
        .optional()
        .meta({
          description: `Pages read at most (default ${CRAWL_LIMITS.defaultMaxPages}, at most ${CRAWL_LIMITS.maxMaxPages}).`,
        }),
      include: pathPatterns.optional().meta({
        description:
          'Paths to keep: a prefix (`/docs/`) or a glob (`/blog/*`, `/docs/**`) matched against the whole path.',
      }),
      exclude: pathPatterns.optional().meta({ description: 'Paths to leave out, as `include`.' }),
    })
    .optional()
    .meta({ description: 'A breadth-first crawl of a site from a page.' }),
  refresh: z
    .enum(['daily', 'weekly'])
    .optional()
    .meta({ description: 'Web sources: crawl again every day or week; only changed pages are replaced.' }),
};

/** The fields of a create body this module reads. */
export interface WebSourceBody {
  url?: string;
  sitemap_url?: string;
  crawl?: { url: string; max_pages?: number; include?: string[]; exclude?: string[] };
  refresh?: 'daily' | 'weekly';
}

/**
 * Checks a web source's URL: absolute http(s), no credentials, its host resolving to public addresses
 * (the SSRF guard; loopback too with KNOWLEDGE_CRAWL_ALLOW_LOOPBACK).
 * @returns the URL without its fragment
 * @throws ApiError 400 naming `param`: `parameter_invalid`, `url_private_address` or `url_unresolvable`
 */
export async function checkWebUrl(raw: string, param: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParam(param, `Invalid ${param}: must be an absolute http or https URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalidParam(param, `Invalid ${param}: must be an http or https URL.`);
  if (url.username || url.password)
    throw invalidParam(param, `Invalid ${param}: credentials in the URL (user:password@) are not accepted.`);
  try {
    await resolveWebhookHost(url, config().knowledgeCrawlAllowLoopback ? 'loopback' : false);
  } catch (err) {
    if (!(err instanceof WebhookAddressError)) throw err;
    const code = err.code === 'address_refused' ? 'url_private_address' : 'url_unresolvable';
    throw new ApiError(400, 'invalid_request_error', code, `Invalid ${param}: ${err.message}`, param);
  }
  url.hash = '';
  return url.href;
}

/**
 * The web source of a create body, checked (`checkWebUrl`), or null when it has none (text or a file;
 * then `refresh` is refused: only web sources are refreshed). The caller has checked that one source
 * only was given.
 */
export async function webSourceOf(body: WebSourceBody): Promise<WebSource | null> {
  const base = { include: [], exclude: [], refresh: body.refresh ?? null };
  if (body.url !== undefined) return { ...base, mode: 'url', url: await checkWebUrl(body.url, 'url'), maxPages: 1 };
  if (body.sitemap_url !== undefined)
    return {
      ...base,
      mode: 'sitemap',
      url: await checkWebUrl(body.sitemap_url, 'sitemap_url'),
      maxPages: CRAWL_LIMITS.defaultMaxPages,
    };
  if (body.crawl !== undefined)
    return {
      ...base,
      mode: 'crawl',
      url: await checkWebUrl(body.crawl.url, 'crawl[url]'),
      maxPages: body.crawl.max_pages ?? CRAWL_LIMITS.defaultMaxPages,
      include: body.crawl.include ?? [],
      exclude: body.crawl.exclude ?? [],
    };
  if (body.refresh !== undefined) throw invalidParam('refresh', 'Invalid refresh: only web sources are refreshed.');
  return null;
}
