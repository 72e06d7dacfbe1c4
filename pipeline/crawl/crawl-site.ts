// Crawls one submitted site for the drafting step: robots.txt first, then up to maxPages HTML
// pages of the same site, fact-bearing pages first, one at a time at the site's Crawl-delay.
// Every request goes through the SSRF-safe fetcher (its address checks, size and time caps).
//
// A plain loop, not Crawlee: what Crawlee would add here is its request queue (FIFO, where we
// need the fact pages first: page-priority.ts), its robots.txt support (fetched with its own HTTP
// client, got-scraping, past the SSRF-safe fetcher; ours follows RFC 9309 per origin, robots.ts)
// and per-domain pacing (one site, one request at a time, is a sleep of Crawl-delay). It was
// handed one URL at a time beside our own robots and pacing, and did nothing else of its own.
import { UnsafeUrlError, type SafeFetch, type SafeResponse } from '../../core/net/ssrf-fetch.ts';
import { loadRobots, type RobotsRules } from './robots.ts';
import { byPriority } from './page-priority.ts';
import { loadHtml, pageTitle, visibleText } from './page-text.ts';
import { isJsShell, type PageRenderer } from './render-page.ts';
import { DEFAULT_STYLESHEET_CAPS, linkedStylesheets, StylesheetLoader, withStylesheets, type StylesheetCaps } from './stylesheets.ts';

export interface CrawledPage {
  url: string;
  status: number;
  title: string | null;
  html: string;
  text: string;
  fetchedAt: string;
}

export type CrawlFailure =
  | 'robots_disallowed'
  | 'robots_unavailable'
  | 'not_html'
  | 'unreachable'
  | 'refused_address'
  | 'too_large'
  | 'http_error'
  | 'off_site';

export type CrawlResult =
  | { status: 'ok'; pages: CrawledPage[]; skipped: { url: string; reason: string }[]; stylesheetBytes?: number }
  | { status: 'failed'; reason: CrawlFailure; detail: string };

export interface CrawlOptions {
  fetcher: SafeFetch;
  userAgent: string;
  maxPages?: number;
  maxMsTotal?: number;
  maxBytesPerPage?: number;
  /** The site's linked stylesheets read to tell visible text from hidden (count and bytes). */
  stylesheets?: Partial<StylesheetCaps>;
  /** Origins never crawled as part of a product: the directory's own site (a product's badge
   * links there). */
  excludeOrigins?: string[];
  /** Renders pages whose HTML is a JavaScript shell (render-page.ts); without it they are read as served. */
  render?: PageRenderer;
  /** Time one page may take to render, within the crawl's total time. */
  renderMs?: number;
}

const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
// Links whose extension says they are not HTML are skipped without spending a request.
const NON_HTML_EXT = /\.(pdf|jpe?g|png|gif|webp|svg|ico|css|js|json|xml|zip|gz|tar|mp[34]|mov|avi|docx?|xlsx?|pptx?|woff2?|ttf)$/i;

class PageError extends Error {
  constructor(
    readonly reason: CrawlFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Same site: the same origin (scheme, host and port). Another port of the same host is
 * another server, and may be another site altogether (the directory's own, say). */
export function sameSite(a: URL, b: URL): boolean {
  return a.origin === b.origin;
}

/** The same host but for one leading "www." (where a submitted URL may redirect to). */
function sameHostFamily(a: URL, b: URL): boolean {
  const bare = (host: string) => host.toLowerCase().replace(/^www\./, '');
  return bare(a.hostname) === bare(b.hostname);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function normalise(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

function failureOf(error: unknown): PageError {
  if (error instanceof PageError) return error;
  if (error instanceof UnsafeUrlError) {
    switch (error.reason) {
      case 'address':
      case 'scheme':
      case 'credentials':
        return new PageError('refused_address', error.message);
      case 'too_large':
        return new PageError('too_large', error.message);
      default:
        return new PageError('unreachable', error.message);
    }
  }
  return new PageError('unreachable', (error as Error)?.message ?? String(error));
}

function isHtml(type: string | null, body: Uint8Array): boolean {
  if (type !== null) return /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(type);
  const head = new TextDecoder().decode(body.subarray(0, 256)).trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}

/** The body as text, in the charset its Content-Type names (UTF-8 when none, or one unknown). */
function decodeBody(type: string | null, body: Uint8Array): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(type ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function crawlSite(startUrl: string, opts: CrawlOptions): Promise<CrawlResult> {
  const maxPages = opts.maxPages ?? 25;
  const deadline = Date.now() + (opts.maxMsTotal ?? 30_000);
  const fetcher = opts.fetcher;
  let start: URL;
  try {
    start = new URL(startUrl);
  } catch {
    return { status: 'failed', reason: 'refused_address', detail: `not a URL: ${startUrl}` };
  }
  if (start.protocol !== 'http:' && start.protocol !== 'https:') {
    return { status: 'failed', reason: 'refused_address', detail: `unsupported scheme ${start.protocol}` };
  }

  const excluded = new Set((opts.excludeOrigins ?? []).flatMap((o) => originOf(o) ?? []));
  if (excluded.has(start.origin)) return { status: 'failed', reason: 'off_site', detail: `${start.origin} is the directory's own site` };

  let robots: RobotsRules;
  try {
    robots = await loadRobots(start.href, fetcher, opts.userAgent);
  } catch (error) {
    const failure = failureOf(error);
    // RFC 9309: an unreachable or oversized robots.txt means "do not crawl".
    const reason = failure.reason === 'too_large' ? 'robots_unavailable' : failure.reason;
    return { status: 'failed', reason, detail: `robots.txt: ${failure.message}` };
  }
  if (robots.kind === 'unavailable') {
    return { status: 'failed', reason: 'robots_unavailable', detail: `robots.txt answered ${robots.status}` };
  }
  if (!robots.isAllowed(start.href)) {
    return { status: 'failed', reason: 'robots_disallowed', detail: `robots.txt disallows ${start.href}` };
  }

  // The site is the start page's origin, or the origin its redirect lands on.
  let site = start;
  const onSite = (url: URL) => sameSite(url, site) && !excluded.has(url.origin);

  const pages: CrawledPage[] = [];
  const skipped: { url: string; reason: string }[] = [];
  const seen = new Set<string>([normalise(start)]);
  let frontier: string[] = []; // discovery order; byPriority picks the next page
  let requests = 0;
  let lastRequestAt = 0;
  // One site, one pace: the largest Crawl-delay of its origins (already capped in robots.ts).
  let crawlDelayMs = robots.crawlDelayMs;

  const skip = (url: string, reason: string) => skipped.push({ url, reason });

  const consider = (href: string, base: string) => {
    let url: URL;
    try {
      url = new URL(href, base);
    } catch {
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    const key = normalise(url);
    if (seen.has(key)) return;
    seen.add(key);
    if (!onSite(url)) return skip(key, 'off_site');
    // The site's origin after a redirect is checked against its own robots.txt when visited.
    if (url.origin === start.origin && !robots.isAllowed(key)) return skip(key, 'robots_disallowed');
    if (NON_HTML_EXT.test(url.pathname)) return skip(key, 'not_html');
    frontier.push(key);
  };
  // robots.txt is per origin (RFC 9309); the www./scheme variants get their own, loaded once.
  const robotsByOrigin = new Map<string, RobotsRules | PageError>([[start.origin, robots]]);
  const robotsRefusal = async (url: string): Promise<string | null> => {
    const origin = new URL(url).origin;
    if (!robotsByOrigin.has(origin)) {
      robotsByOrigin.set(origin, await loadRobots(url, fetcher, opts.userAgent).catch(failureOf));
    }
    const rules = robotsByOrigin.get(origin)!;
    if (!(rules instanceof PageError) && rules.kind === 'rules') crawlDelayMs = Math.max(crawlDelayMs, rules.crawlDelayMs);
    if (rules instanceof PageError || rules.kind === 'unavailable') return 'robots_unavailable';
    return rules.isAllowed(url) ? null : 'robots_disallowed';
  };

  // What the fetcher does not check: the final URL stays on the site, 2xx, HTML, size.
  const checkPage = (response: SafeResponse, first: boolean) => {
    const { body } = response;
    const finalUrl = new URL(response.url);
    // The submitted URL may redirect once to the site's real origin (http to https, to www.);
    // from then on that origin is the site.
    if (first && !excluded.has(finalUrl.origin) && finalUrl.origin !== site.origin && sameHostFamily(finalUrl, start)) site = finalUrl;
    if (!onSite(finalUrl)) throw new PageError('off_site', `redirected off the site to ${finalUrl.href}`);
    const status = response.status;
    if (status < 200 || status >= 300) throw new PageError('http_error', `answered ${status}`);
    const type = response.headers.get('content-type');
    if (!isHtml(type, body)) throw new PageError('not_html', `content type ${type ?? 'none'}`);
    if (opts.maxBytesPerPage !== undefined && body.byteLength > opts.maxBytesPerPage) {
      throw new PageError('too_large', `page is larger than ${opts.maxBytesPerPage} bytes`);
    }
    return finalUrl;
  };

  // One site, one request at a time, Crawl-delay apart (pages and stylesheets alike).
  const pace = async () => {
    if (crawlDelayMs > 0 && lastRequestAt > 0) {
      const wait = lastRequestAt + crawlDelayMs - Date.now();
      if (wait > 0) await sleep(wait);
    }
    lastRequestAt = Date.now();
  };

  const sheets = new StylesheetLoader(
    fetcher,
    {
      sameSite: (url) => onSite(new URL(url)),
      allowed: async (url) => Date.now() < deadline && (await robotsRefusal(url)) === null,
      pace,
    },
    { ...DEFAULT_STYLESHEET_CAPS, ...opts.stylesheets },
  );

  // One page: fetched, checked, rendered when it is a JavaScript shell, its stylesheets read and
  // its links added to the frontier. A failure of the start page fails the crawl; of any other,
  // it is skipped with the reason.
  const visit = async (url: string, first: boolean): Promise<PageError | null> => {
    try {
      await pace();
      const response = await fetcher(url, { accept: ACCEPT_HTML });
      lastRequestAt = Date.now();
      const finalUrl = checkPage(response, first);
      seen.add(normalise(finalUrl));
      let html = decodeBody(response.headers.get('content-type'), response.body);
      if (opts.render !== undefined && isJsShell(html, visibleText(loadHtml(html)))) {
        const rendered = await opts.render.render(
          finalUrl.href,
          { allowed: async (u) => Date.now() < deadline && onSite(new URL(u)) && (await robotsRefusal(u)) === null },
          Math.min(opts.renderMs ?? 10_000, deadline - Date.now()),
        );
        if (rendered !== null && (opts.maxBytesPerPage === undefined || Buffer.byteLength(rendered) <= opts.maxBytesPerPage)) html = rendered;
      }
      const $ = loadHtml(html);
      const title = pageTitle($);
      const hrefs = $('a[href]')
        .map((_, element) => $(element).attr('href') ?? '')
        .get();
      const base = $('base[href]').attr('href');
      const linkBase = base ? new URL(base, finalUrl).href : finalUrl.href;
      const css: { url: string; css: string }[] = [];
      for (const sheet of linkedStylesheets($, linkBase)) {
        const rules = await sheets.load(sheet);
        if (rules !== null) css.push({ url: sheet, css: rules });
      }
      const stored = withStylesheets(html, css);
      const text = visibleText(stored === html ? $ : loadHtml(stored));
      pages.push({ url: finalUrl.href, status: response.status, title, html: stored, text, fetchedAt: new Date().toISOString() });
      for (const href of hrefs) consider(href, linkBase);
      return null;
    } catch (error) {
      lastRequestAt = Date.now();
      return failureOf(error);
    }
  };

  /** The next page to fetch, best first (page-priority.ts); what cannot be fetched is skipped with why. */
  const nextPage = async (): Promise<string | null> => {
    while (frontier.length > 0 && requests < maxPages) {
      frontier = byPriority(frontier);
      const next = frontier.shift()!;
      if (Date.now() + crawlDelayMs >= deadline) {
        skip(next, 'time_limit');
        continue;
      }
      const refusal = await robotsRefusal(next);
      if (refusal !== null) {
        skip(next, refusal);
        continue;
      }
      return next;
    }
    return null;
  };

  requests = 1;
  const startFailure = await visit(normalise(start), true);
  if (startFailure !== null) return { status: 'failed', reason: startFailure.reason, detail: startFailure.message };
  for (let next = await nextPage(); next !== null; next = await nextPage()) {
    requests += 1;
    const failure = await visit(next, false);
    if (failure !== null) skip(next, failure.reason);
  }
  for (const rest of frontier) skip(rest, Date.now() >= deadline ? 'time_limit' : 'page_cap');
  skipped.push(...sheets.skipped);
  return { status: 'ok', pages, skipped, stylesheetBytes: sheets.fetchedBytes };
}
