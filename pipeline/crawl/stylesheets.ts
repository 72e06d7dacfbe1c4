// The site's own linked stylesheets, so the crawler sees what a browser hides. Each sheet is
// fetched once per crawl through the SSRF-safe fetcher, only from the crawled site, only where
// robots.txt allows, within the crawl's caps (count and bytes); what cannot be read is left
// out (the page's own <style> blocks and the hiding attributes and classes still apply). The
// rules that decide visibility are then written into the stored page as a <style> block, so
// every later reading of the page (the drafters, a redraft) sees the same visible text.
import type { CheerioAPI } from 'cheerio';
import type { SafeFetch } from '../../core/net/ssrf-fetch.ts';
import { relevantCss } from './visibility/css-rules.ts';

export interface StylesheetCaps {
  /** Distinct stylesheets fetched per crawl. */
  maxSheets: number;
  /** Bytes of one stylesheet. */
  maxBytesPerSheet: number;
  /** Bytes of all stylesheets of the crawl together. */
  maxBytesTotal: number;
}

export const DEFAULT_STYLESHEET_CAPS: StylesheetCaps = { maxSheets: 12, maxBytesPerSheet: 512_000, maxBytesTotal: 2_000_000 };

/** Absolute URLs of the page's screen stylesheets, in document order. */
export function linkedStylesheets($: CheerioAPI, base: string): string[] {
  const out: string[] = [];
  $('link[href]').each((_, el) => {
    const rel = (el.attribs.rel ?? '').toLowerCase().split(/\s+/);
    if (!rel.includes('stylesheet') || rel.includes('alternate') || 'disabled' in el.attribs) return;
    const media = (el.attribs.media ?? '').toLowerCase();
    if (/\bprint\b/.test(media) && !/\b(screen|all)\b/.test(media)) return;
    try {
      const url = new URL(el.attribs.href ?? '', base);
      if (url.protocol === 'http:' || url.protocol === 'https:') out.push(url.href);
    } catch {
      // not a URL: nothing to fetch
    }
  });
  return out;
}

export interface SheetFetchRules {
  sameSite(url: string): boolean;
  allowed(url: string): Promise<boolean>;
  /** Waits for the crawl's pace (Crawl-delay) before a request. */
  pace(): Promise<void>;
}

export class StylesheetLoader {
  private readonly sheets = new Map<string, Promise<string | null>>();
  private bytes = 0;
  readonly skipped: { url: string; reason: string }[] = [];

  constructor(
    private readonly fetcher: SafeFetch,
    private readonly rules: SheetFetchRules,
    private readonly caps = DEFAULT_STYLESHEET_CAPS,
  ) {}

  get fetchedBytes(): number {
    return this.bytes;
  }

  /** The relevant rules of the sheet at `url`, or null when it is not read. */
  load(url: string): Promise<string | null> {
    const key = url.split('#')[0]!;
    let sheet = this.sheets.get(key);
    if (sheet === undefined) {
      sheet = this.fetchSheet(key);
      this.sheets.set(key, sheet);
    }
    return sheet;
  }

  private async fetchSheet(url: string): Promise<string | null> {
    const skip = (reason: string) => {
      this.skipped.push({ url, reason });
      return null;
    };
    if (!this.rules.sameSite(url)) return skip('off_site');
    if (this.sheets.size > this.caps.maxSheets) return skip('stylesheet_cap');
    if (this.bytes >= this.caps.maxBytesTotal) return skip('stylesheet_bytes_cap');
    if (!(await this.rules.allowed(url))) return skip('robots_disallowed');
    try {
      await this.rules.pace();
      const response = await this.fetcher(url, { accept: 'text/css,*/*;q=0.1' });
      const type = response.headers.get('content-type') ?? '';
      if (response.status < 200 || response.status >= 300) return skip('http_error');
      if (type !== '' && !/^\s*text\/css\b/i.test(type)) return skip('not_css');
      if (response.body.byteLength > this.caps.maxBytesPerSheet || this.bytes + response.body.byteLength > this.caps.maxBytesTotal) {
        return skip('too_large');
      }
      this.bytes += response.body.byteLength;
      return relevantCss(new TextDecoder().decode(response.body));
    } catch {
      return skip('unreachable');
    }
  }
}

/** The page with the sheets' rules written at the top of its <head> (before its own <style>
 * blocks, where linked sheets usually stand in the cascade). */
export function withStylesheets(html: string, sheets: { url: string; css: string }[]): string {
  if (sheets.length === 0) return html;
  const blocks = sheets
    .filter((s) => s.css !== '')
    .map((s) => `<style data-crawled-from="${encodeURI(s.url).replace(/"/g, '%22')}">\n${s.css.replace(/<\/style/gi, '<\\/style')}\n</style>`)
    .join('');
  if (blocks === '') return html;
  const head = /<head\b[^>]*>/i.exec(html);
  return head === null ? `${blocks}${html}` : `${html.slice(0, head.index + head[0].length)}${blocks}${html.slice(head.index + head[0].length)}`;
}
