// Pages that need a browser: when a page's HTML is a JavaScript shell (an app root and little
// visible text), headless Chromium runs its scripts and the crawl reads the rendered DOM. The
// browser never touches the network itself: every request it makes is intercepted and either
// refused (another origin, a path robots.txt disallows, images, fonts and media) or answered
// with what the SSRF-safe fetcher fetched, and host resolution inside the browser maps every
// name to nowhere, so nothing it does escapes the address policy, robots.txt or the size and
// time caps of the crawl.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Route } from 'playwright-core';
import type { SafeFetch } from '../../core/net/ssrf-fetch.ts';
import { loadHtml, visibleText } from './page-text.ts';

export interface RenderRules {
  /** Whether the browser may load the URL: same site, allowed by robots.txt, within the time. */
  allowed(url: string): Promise<boolean>;
}

export interface PageRenderer {
  /** The page's HTML after its scripts ran, or null when it could not be rendered in time. */
  render(url: string, rules: RenderRules, timeoutMs: number): Promise<string | null>;
  close(): Promise<void>;
}

/** Visible characters below which a page with an app root or scripts is a shell, not a page. */
const SHELL_TEXT_CHARS = 200;
const APP_ROOT = '#root, #app, #__next, #__nuxt, #svelte, [data-reactroot], [ng-version], app-root, [id^="app"]';

/** Whether the page is a JavaScript shell: almost no visible text, and an app root or scripts
 * that would fill it. */
export function isJsShell(html: string, text: string): boolean {
  if (text.replace(/\s+/g, '').length >= SHELL_TEXT_CHARS) return false;
  const $ = loadHtml(html);
  return $(APP_ROOT).length > 0 || $('script[src], script[type="module"]').length > 0;
}

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
// No resolution inside the browser: every request is answered by the interceptor below.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND',
];
const UNSAFE_FLAGS = /^--(disable-web-security|allow-running-insecure-content|disable-site-isolation-trials|single-process)\b/;
const SKIPPED_TYPES = new Set(['image', 'font', 'media', 'websocket', 'eventsource', 'manifest', 'other']);

/** The system Chromium (or CHROMIUM_PATH), else the build inside the @sparticuz/chromium package. */
async function launch(executable: string | null): Promise<Browser> {
  const system = [executable, ...SYSTEM_CHROMIUM].find((p): p is string => !!p && existsSync(p));
  if (system) return chromium.launch({ executablePath: system, headless: true, args: CHROMIUM_ARGS });
  const packaged = (await import('@sparticuz/chromium')).default;
  const args = [...new Set([...packaged.args.filter((a) => !UNSAFE_FLAGS.test(a)), ...CHROMIUM_ARGS])];
  return chromium.launch({ executablePath: await packaged.executablePath(), headless: true, args });
}

export interface ChromiumRendererOptions {
  fetcher: SafeFetch;
  userAgent: string;
  /** Bytes of rendered HTML kept at most; a larger page is not rendered. */
  maxBytes: number;
  /** A Chromium binary to prefer (CHROMIUM_PATH). */
  executablePath?: string | null;
}

/** One browser, started on the first shell page and reused; a fresh context per page. */
export class ChromiumRenderer implements PageRenderer {
  private browser: Promise<Browser> | null = null;

  constructor(private readonly opts: ChromiumRendererOptions) {}

  async render(url: string, rules: RenderRules, timeoutMs: number): Promise<string | null> {
    if (timeoutMs <= 0) return null;
    this.browser ??= launch(this.opts.executablePath ?? null);
    let context: BrowserContext;
    try {
      const browser = await this.browser;
      context = await browser.newContext({ userAgent: this.opts.userAgent, serviceWorkers: 'block', acceptDownloads: false });
    } catch {
      // No browser to be had (none installed, out of memory): the page is read as served; the next page tries again.
      this.browser = null;
      return null;
    }
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(timeoutMs);
      await page.route('**/*', (route) => this.answer(route, rules));
      await page.goto(url, { waitUntil: 'networkidle', timeout: timeoutMs });
      const html = await page.content();
      return Buffer.byteLength(html) <= this.opts.maxBytes ? html : null;
    } catch {
      return null;
    } finally {
      await context.close().catch(() => {});
    }
  }

  private async answer(route: Route, rules: RenderRules): Promise<void> {
    const request = route.request();
    if (request.method() !== 'GET' || SKIPPED_TYPES.has(request.resourceType()) || !(await rules.allowed(request.url()))) {
      await route.abort('blockedbyclient');
      return;
    }
    try {
      const response = await this.opts.fetcher(request.url(), { accept: request.headers().accept });
      if (response.url !== request.url() && !(await rules.allowed(response.url))) {
        await route.abort('blockedbyclient');
        return;
      }
      const type = response.headers.get('content-type') ?? 'application/octet-stream';
      await route.fulfill({ status: response.status, headers: { 'content-type': type }, body: Buffer.from(response.body) });
    } catch {
      await route.abort('failed');
    }
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    if (browser !== null) await (await browser.catch(() => null))?.close();
  }
}

/** The rendered page's visible text and HTML, read the same way as a fetched page's. */
export function renderedText(html: string): string {
  return visibleText(loadHtml(html));
}
