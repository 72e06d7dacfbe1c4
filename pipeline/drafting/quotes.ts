// Finding quotes in crawled visible text. A quote counts only when it occurs word for word in
// a page's visible text (page.text: the crawler already dropped comments, scripts, styles and
// hidden elements) after both are normalised (normaliseText: whitespace, case, entities, NFKC,
// curly quotes and dashes), starting and ending on word boundaries.
//
// Which page: the page the quote names is searched first; when the quote is not there but on
// another crawled page of the same site, it counts and its URL is corrected to that page, so
// stored evidence always points where the words are. Pages of another site (a competitor's)
// are never searched for the product's quotes: callers pass one site's pages at a time.
import type { CrawledPage } from '../crawl/crawl-site.ts';
import type { Evidence } from '../../core/drafts/fields.ts';
import { EVIDENCE_MAX, QUOTE_MAX } from '../../core/drafts/bounds.ts';
import { containsPhrase, normaliseText, urlKey } from './normalise.ts';
import { isInstructionLike } from './rules/instructions.ts';
import { pageModel } from './page-model.ts';

const normCache = new WeakMap<CrawledPage, string>();

export function pageNorm(page: CrawledPage): string {
  let norm = normCache.get(page);
  if (norm === undefined) {
    norm = normaliseText(page.text ?? '');
    normCache.set(page, norm);
  }
  return norm;
}

/** Whether the quote is on the page as visible text, or as what the page declares. */
export function onPage(page: CrawledPage, quote: string): boolean {
  const norm = normaliseText(quote);
  return containsPhrase(pageNorm(page), norm) || (norm.length >= 3 && pageModel(page).declared.includes(norm));
}

export class Site {
  private readonly byKey = new Map<string, CrawledPage>();

  constructor(readonly pages: CrawledPage[]) {
    for (const page of pages) {
      const key = urlKey(page.url);
      if (key !== null && !this.byKey.has(key)) this.byKey.set(key, page);
    }
  }

  page(url: string): CrawledPage | undefined {
    const key = urlKey(url);
    return key === null ? undefined : this.byKey.get(key);
  }

  /** The page whose visible text holds the quote: the named one first, then any other. */
  locate(quote: string, namedUrl: string): CrawledPage | null {
    const norm = normaliseText(quote);
    if (norm === '' || !/[\p{L}\p{N}]/u.test(norm)) return null;
    const named = this.page(namedUrl);
    if (named !== undefined && containsPhrase(pageNorm(named), norm)) return named;
    for (const page of this.pages) {
      if (page !== named && containsPhrase(pageNorm(page), norm)) return page;
    }
    return null;
  }

  /** The page that declares the quote (JSON-LD text, an image's alt text, a logo's file name)
   * without showing it as text: the named one first, then any other. */
  locateDeclared(quote: string, namedUrl: string): CrawledPage | null {
    const norm = normaliseText(quote);
    if (norm.length < 3 || !/[\p{L}\p{N}]/u.test(norm)) return null;
    const named = this.page(namedUrl);
    const pages = named === undefined ? this.pages : [named, ...this.pages.filter((p) => p !== named)];
    return pages.find((page) => pageModel(page).declared.includes(norm)) ?? null;
  }

  /** The evidence items whose quotes are on this site, URLs corrected, duplicates and
   * over-long quotes dropped, at most EVIDENCE_MAX. `declared`: a quote the page declares
   * (JSON-LD, alt text, logo file name) counts too, for the facts that are declared that way. */
  verify(evidence: unknown, opts: { declared?: boolean } = {}): Evidence[] {
    if (!Array.isArray(evidence)) return [];
    const out: Evidence[] = [];
    const seen = new Set<string>();
    for (const item of evidence) {
      if (out.length >= EVIDENCE_MAX) break;
      if (item === null || typeof item !== 'object') continue;
      const { quote, url } = item as Partial<Evidence>;
      if (typeof quote !== 'string' || typeof url !== 'string') continue;
      const text = quote.replace(/\s+/g, ' ').trim();
      // An instruction to a machine reader states nothing about the product, visible or not.
      if (text === '' || text.length > QUOTE_MAX || isInstructionLike(text)) continue;
      const page = this.locate(text, url) ?? (opts.declared === true ? this.locateDeclared(text, url) : null);
      if (page === null) continue;
      const key = `${page.url}\n${normaliseText(text)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ quote: text, url: page.url });
    }
    return out;
  }
}
