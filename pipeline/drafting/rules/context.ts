// What the per-field rules know besides the quotes: the product's names and, for each quote,
// the crawled page it is on (its path, and which of its text is the site's own words).
import type { CrawledPage } from '../../crawl/crawl-site.ts';
import type { Evidence } from '../../../core/drafts/fields.ts';
import { containsPhrase, normaliseText } from '../normalise.ts';
import { pageModel } from '../page-model.ts';
import { thirdPartyPage } from './attribution.ts';
import { isInstructionLike } from './instructions.ts';
import type { ProductContext } from './subject.ts';
import { postalTown } from './location.ts';

export type PageOf = (url: string) => CrawledPage | undefined;

export interface RuleContext extends ProductContext {
  pageOf: PageOf;
  /** Every crawled page of the site, where a rule must know what the site shows elsewhere (a
   * declared fact counts only when no visible statement contradicts it). */
  pages?: CrawledPage[];
}

// Posts, release notes and news speak of the past or of others, not of what the product is now.
const DATED_PATH = /\/(?:blog|news|changelog|release-?notes|releases|updates|whats-new|press|posts?|articles?)(?:\/|$)/i;

export function datedPage(url: string): boolean {
  try {
    return DATED_PATH.test(new URL(url).pathname.toLowerCase().replace(/\.html?$/, ''));
  } catch {
    return false;
  }
}

/** A quote in the site's own words: on a page about the site itself, outside testimonials,
 * reviews, press and partner blocks, and no instruction to a machine reader. */
export function ownWords(e: Evidence, ctx: RuleContext): boolean {
  if (isInstructionLike(e.quote) || thirdPartyPage(e.url)) return false;
  const page = ctx.pageOf(e.url);
  if (page === undefined) return false;
  return containsPhrase(pageModel(page).ownNorm, normaliseText(e.quote));
}

/** A quote on a line of the page's address or footer blocks (where a company states where it
 * is), or a line of a postal address written as lines ("50672 Köln" above "Deutschland"). */
export function addressLine(e: Evidence, ctx: RuleContext): boolean {
  const page = ctx.pageOf(e.url);
  if (page === undefined) return false;
  const model = pageModel(page);
  const q = normaliseText(e.quote);
  if ([...model.addressLines].some((line) => containsPhrase(line, q))) return true;
  return model.normLines.some((line, i) => line === q && [model.lines[i - 1], model.lines[i]].some((l) => l !== undefined && postalTown(l) !== null));
}

/** A quote that is just the text of a link on its page: a menu item, not a statement. */
export function linkLabel(e: Evidence, ctx: RuleContext): boolean {
  const page = ctx.pageOf(e.url);
  if (page === undefined) return false;
  const q = normaliseText(e.quote);
  const model = pageModel(page);
  return model.links.some((l) => normaliseText(model.$(l.el).text()) === q);
}

/** The product's names: the drafted name and the site's host label ("orbitly" of orbitly.io). */
export function productNames(name: string | null, url: string | undefined): string[] {
  const names = name === null ? [] : [name];
  try {
    const host = new URL(url ?? '').hostname.replace(/^www\./, '').split('.')[0];
    if (host && host.length >= 3) names.push(host);
  } catch {
    // no URL: the name alone
  }
  return names;
}
