// Crawls one submitted site for the drafting step: robots.txt first, then up to maxPages HTML
// pages of the same site, fact-bearing pages first. Every request goes through the SSRF-safe
// fetcher (a CheerioCrawler whose httpClient is SafeHttpClient); the link frontier and its
// priority order are ours (page-priority.ts), Crawlee is handed one URL at a time.
import { CheerioCrawler, Configuration, Log, LogLevel } from '@crawlee/cheerio';
import { MemoryStorage } from '@crawlee/memory-storage';
import { UnsafeUrlError, type SafeFetch } from '../../core/net/ssrf-fetch.ts';
import { SafeHttpClient } from './safe-http-client.ts';
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

  // Checks what Crawlee does not: the final URL stays on the site, 2xx, HTML, size.
  const checkPage = (response: { url: string; statusCode: number; headers: Record<string, unknown> }, body: Buffer, first: boolean) => {
    const finalUrl = new URL(response.url);
    // The submitted URL may redirect once to the site's real origin (http to https, to www.);
    // from then on that origin is the site.
    if (first && !excluded.has(finalUrl.origin) && finalUrl.origin !== site.origin && sameHostFamily(finalUrl, start)) site = finalUrl;
    if (!onSite(finalUrl)) throw new PageError('off_site', `redirected off the site to ${finalUrl.href}`);
    const status = response.statusCode;
    if (status < 200 || status >= 300) throw new PageError('http_error', `answered ${status}`);
    const type = response.headers['content-type'];
    if (!isHtml(typeof type === 'string' ? type : null, body)) {
      throw new PageError('not_html', `content type ${typeof type === 'string' ? type : 'none'}`);
    }
    if (opts.maxBytesPerPage !== undefined && body.byteLength > opts.maxBytesPerPage) {
      throw new PageError('too_large', `page is larger than ${opts.maxBytesPerPage} bytes`);
    }
    return finalUrl;
  };

  const sheets = new StylesheetLoader(
    fetcher,
    {
      sameSite: (url) => onSite(new URL(url)),
      allowed: async (url) => Date.now() < deadline && (await robotsRefusal(url)) === null,
      pace: async () => {
        if (crawlDelayMs > 0 && lastRequestAt > 0) {
          const wait = lastRequestAt + crawlDelayMs - Date.now();
          if (wait > 0) await sleep(wait);
        }
        lastRequestAt = Date.now();
      },
    },
    { ...DEFAULT_STYLESHEET_CAPS, ...opts.stylesheets },
  );

  let startFailure: PageError | null = null;
  const startKey = normalise(start);

  // Crawlee runs one request at a time; we hand it the next best URL after each page, so the
  // priority order and the page cap are ours, not the queue's FIFO order.
  const enqueueNext = async () => {
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
      requests += 1;
      await crawler.addRequests([{ url: next, uniqueKey: next }]);
      return;
    }
  };

  const config = new Configuration({
    persistStorage: false,
    storageClient: new MemoryStorage({ persistStorage: false, writeMetadata: false }),
  });
  const crawler = new CheerioCrawler(
    {
      httpClient: new SafeHttpClient(fetcher),
      // Every failure is reported in the result; Crawlee's own logging would only repeat it.
      log: new Log({ level: LogLevel.OFF }),
      maxConcurrency: 1,
      maxRequestRetries: 0,
      useSessionPool: false,
      persistCookiesPerSession: false,
      // Non-HTML answers reach the handler, which skips them by Content-Type.
      additionalMimeTypes: ['*/*'],
      ignoreHttpErrorStatusCodes: Array.from({ length: 200 }, (_, i) => 400 + i),
      requestHandlerTimeoutSecs: 30,
      navigationTimeoutSecs: 30,
      preNavigationHooks: [
        async (_context, gotOptions) => {
          if (crawlDelayMs > 0 && lastRequestAt > 0) {
            const wait = lastRequestAt + crawlDelayMs - Date.now();
            if (wait > 0) await sleep(wait);
          }
          lastRequestAt = Date.now();
          gotOptions.headers = { ...gotOptions.headers, accept: ACCEPT_HTML };
        },
      ],
      requestHandler: async ({ request, response, body }) => {
        lastRequestAt = Date.now();
        const buffer = Buffer.isBuffer(body) ? body : Buffer.from(String(body));
        try {
          const finalUrl = checkPage(response as never, buffer, request.uniqueKey === startKey);
          seen.add(normalise(finalUrl));
          // CheerioCrawler hands over the body decoded by the response charset.
          let html = typeof body === 'string' ? body : buffer.toString('utf8');
          if (opts.render !== undefined && isJsShell(html, visibleText(loadHtml(html)))) {
            const rendered = await opts.render.render(
              finalUrl.href,
              { allowed: async (url) => Date.now() < deadline && onSite(new URL(url)) && (await robotsRefusal(url)) === null },
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
          for (const url of linkedStylesheets($, linkBase)) {
            const rules = await sheets.load(url);
            if (rules !== null) css.push({ url, css: rules });
          }
          const stored = withStylesheets(html, css);
          const text = visibleText(stored === html ? $ : loadHtml(stored));
          pages.push({ url: finalUrl.href, status: response.statusCode ?? 200, title, html: stored, text, fetchedAt: new Date().toISOString() });
          for (const href of hrefs) consider(href, linkBase);
        } catch (error) {
          const failure = failureOf(error);
          if (request.uniqueKey === startKey) startFailure = failure;
          else skip(request.url, failure.reason);
        }
        await enqueueNext();
      },
      failedRequestHandler: async ({ request }, error) => {
        lastRequestAt = Date.now();
        const failure = failureOf(error);
        if (request.uniqueKey === startKey) startFailure = failure;
        else skip(request.url, failure.reason);
        if (startFailure === null) await enqueueNext();
      },
    },
    config,
  );

  requests = 1;
  const timer = setTimeout(() => void crawler.teardown().catch(() => {}), Math.max(0, deadline - Date.now()));
  try {
    await crawler.run([{ url: startKey, uniqueKey: startKey }]);
  } finally {
    clearTimeout(timer);
  }
  const failed = startFailure as PageError | null;
  if (failed !== null) return { status: 'failed', reason: failed.reason, detail: failed.message };
  for (const rest of frontier) skip(rest, Date.now() >= deadline ? 'time_limit' : 'page_cap');
  skipped.push(...sheets.skipped);
  return { status: 'ok', pages, skipped, stylesheetBytes: sheets.fetchedBytes };
}
