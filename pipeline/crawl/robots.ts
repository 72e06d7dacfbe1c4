// robots.txt per RFC 9309, fetched through the SSRF-safe fetcher: 2xx parsed, 4xx means
// "everything allowed", 5xx (or no answer) means "do not crawl".
import robotsParser from 'robots-parser';
import type { SafeFetch } from '../../core/net/ssrf-fetch.ts';

/** Longest Crawl-delay we honour; a larger value is clamped (a crawl has a total time cap anyway). */
export const MAX_CRAWL_DELAY_MS = 10_000;

export type RobotsRules = { kind: 'rules'; isAllowed: (url: string) => boolean; crawlDelayMs: number } | { kind: 'unavailable'; status: number };

/** The product token of a User-Agent string: 'LaunchpadDirectoryBot/1.0 (+https://x/bot)' → 'LaunchpadDirectoryBot'. */
export function productToken(userAgent: string): string {
  const token = userAgent.trim().split(/[\s/]/)[0] ?? '';
  return token.replace(/[^A-Za-z_-]/g, '') || '*';
}

/** Parses a robots.txt body for our token; exported separately so it can be tested without a server. */
export function parseRobots(robotsUrl: string, text: string, userAgent: string): RobotsRules {
  const robots = robotsParser(robotsUrl, text);
  const token = productToken(userAgent);
  const delay = Number(robots.getCrawlDelay(token) ?? 0);
  const crawlDelayMs = Number.isFinite(delay) && delay > 0 ? Math.min(delay * 1000, MAX_CRAWL_DELAY_MS) : 0;
  return {
    kind: 'rules',
    // robots-parser answers undefined for URLs of another origin; those are never crawled anyway.
    isAllowed: (url) => robots.isAllowed(url, token) !== false,
    crawlDelayMs,
  };
}

const ALLOW_ALL: RobotsRules = { kind: 'rules', isAllowed: () => true, crawlDelayMs: 0 };

/** Fetches and parses robots.txt for the origin of `siteUrl`. Fetch errors propagate to the caller. */
export async function loadRobots(siteUrl: string, fetcher: SafeFetch, userAgent: string): Promise<RobotsRules> {
  const robotsUrl = new URL('/robots.txt', siteUrl).href;
  const response = await fetcher(robotsUrl, { accept: 'text/plain' });
  if (response.status >= 500) return { kind: 'unavailable', status: response.status };
  if (response.status >= 400) return ALLOW_ALL;
  if (response.status < 200 || response.status >= 300) return ALLOW_ALL;
  // Parse against the URL we asked for: rules apply to the origin being crawled.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(response.body);
  return parseRobots(robotsUrl, text, userAgent);
}
