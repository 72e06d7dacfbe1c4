// What makes verified quotes support a value, field by field. A quote being on the site is not
// enough: "founded in 2019" does not support founded_year 1850. Each rule returns the value in
// its stored form with the quotes that support it, or null (the field is then not found).
//
//  - Facts that are words (name, city): the value occurs in a quote as a phrase.
//  - founded_year: a year 1800..this year that occurs in a quote together with a founding word
//    ("founded", "since", "established", ...); a copyright year is no founding year.
//  - country: an ISO 3166-1 alpha-2 code (a stated name is turned into its code) whose English
//    name or common alias occurs in a quote. A code alone ("DE") is not enough.
//  - contact_email: occurs in a quote, or is the address of a visible mailto: link on the
//    quote's page.
//  - URLs (socials, demo_video_url, milestone url): the URL (scheme, "www." and trailing slash
//    aside) is the target of a visible link on the quote's page, or written in a quote; a video
//    may also be a visible embed; socials must be on their platform's host. Quotes are visible
//    text, links are not text: so a URL is evidenced by its quote's page carrying it visibly.
//  - logo_url: one of the logos the quote's page declares (JSON-LD logo, a visible <img> marked
//    logo/brand, apple-touch-icon or icon link, og:image). These are declarations of the site
//    itself, not text a visitor reads, so the quote (the brand line or product name) only ties
//    the value to the page.
//  - pricing_model: one of the named models (vocabulary.ts) whose words are in the quotes
//    ("Freemium" needs a free plan and a price), or any wording whose words are in the quotes.
//  - categories: names from list_categories only (matched case-insensitively, stored in the
//    canonical spelling) with at least half their words in the quotes.
//  - Free text (tagline, descriptions, features, FAQ answers, story ...): at least 60% of the
//    value's content words occur (by stem) in its quotes, and every number in it does, so a
//    drafter may shorten but not invent.
import type { CrawledPage } from '../crawl/crawl-site.ts';
import type { Evidence, SocialPlatform } from '../../core/drafts/fields.ts';
import { countryCode, countryNames } from './countries.ts';
import { containsPhrase, normaliseText, support, urlKey } from './normalise.ts';
import { pageModel } from './page-model.ts';
import { FOUNDING_WORDS, isVideoUrl, linkFitsPlatform, PRICING_MODELS } from './vocabulary.ts';
import { YEAR_MIN } from '../../core/drafts/bounds.ts';
import { CategoryIndex } from './category-match.ts';
import type { CategoryText } from './types.ts';
import {
  addressLine,
  datedPage,
  declaredOnly,
  declaresCity,
  declaresCountry,
  declaresFounder,
  declaresFounding,
  linkLabel,
  foundedHere,
  ownWords,
  personName,
  quoteStatesFounding,
  stageOf,
  statesCurrentStage,
  statesLocation,
  type RuleContext,
} from './rules/index.ts';

export type { RuleContext };

export interface Supported<T> {
  value: T;
  evidence: Evidence[];
}
export type PageOf = (url: string) => CrawledPage | undefined;

export const TEXT_SUPPORT = 0.6;
export const LABEL_SUPPORT = 0.5;

const quotesOf = (evidence: Evidence[]) => evidence.map((e) => e.quote);

export function textSupported(value: string, evidence: Evidence[], threshold = TEXT_SUPPORT): boolean {
  const { ratio, numbersOk } = support(value, quotesOf(evidence));
  return numbersOk && ratio >= threshold;
}

/** Collapses runs of spaces; keeps paragraph breaks (at most one blank line). */
export function cleanText(value: string): string {
  return value
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function phrase(value: string, evidence: Evidence[]): Supported<string> | null {
  const v = cleanText(value).replace(/\n/g, ' ');
  const norm = normaliseText(v);
  const quotes = evidence.filter((e) => containsPhrase(normaliseText(e.quote), norm));
  return norm !== '' && quotes.length > 0 ? { value: v, evidence: quotes } : null;
}

export function foundedYear(value: string, evidence: Evidence[], now: Date): Supported<string> | null {
  const years = String(value).match(/\b\d{4}\b/g);
  if (years === null || years.length !== 1) return null;
  const year = years[0]!;
  if (Number(year) < YEAR_MIN || Number(year) > now.getUTCFullYear()) return null;
  const quotes = evidence.filter((e) => containsPhrase(normaliseText(e.quote), year) && FOUNDING_WORDS.test(e.quote));
  return quotes.length > 0 ? { value: year, evidence: quotes } : null;
}

export function country(value: string, evidence: Evidence[]): Supported<string> | null {
  const v = value.trim();
  const code = /^[A-Za-z]{2}$/.test(v) ? v.toUpperCase() : countryCode(v);
  const names = code === null ? null : countryNames(code);
  if (code === null || names === null) return null;
  const quotes = evidence.filter((e) => {
    const q = normaliseText(e.quote);
    return names.some((n) => containsPhrase(q, n));
  });
  return quotes.length > 0 ? { value: code, evidence: quotes } : null;
}

const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}$/;

export function email(value: string, evidence: Evidence[], pageOf: PageOf): Supported<string> | null {
  const address = value
    .trim()
    .replace(/^mailto:/i, '')
    .toLowerCase();
  if (!EMAIL.test(address)) return null;
  const quotes = evidence.filter((e) => {
    if (containsPhrase(normaliseText(e.quote), address)) return true;
    const page = pageOf(e.url);
    return page !== undefined && pageModel(page).mailtos.has(address);
  });
  return quotes.length > 0 ? { value: address, evidence: quotes } : null;
}

const URL_IN_TEXT = /\b(?:https?:\/\/)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:\/[^\s"'<>)\]]*)?/gi;

function urlWrittenIn(quote: string, key: string): boolean {
  for (const match of quote.matchAll(URL_IN_TEXT)) {
    const raw = match[0].replace(/[.,;:!?]+$/, '');
    if (urlKey(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`) === key) return true;
  }
  return false;
}

type LinkKind = 'link' | 'media' | 'logo';

/** The quotes whose pages carry the URL visibly (as a link, an embed or a declared logo). */
function linkQuotes(url: string, evidence: Evidence[], pageOf: PageOf, kind: LinkKind): Evidence[] {
  const key = urlKey(url);
  if (key === null) return [];
  return evidence.filter((e) => {
    const page = pageOf(e.url);
    if (page === undefined) return false;
    const model = pageModel(page);
    if (kind === 'logo') return model.logoKeys.has(key);
    if (model.linkKeys.has(key) || urlWrittenIn(e.quote, key)) return true;
    return kind === 'media' && model.mediaKeys.has(key);
  });
}

function httpUrl(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function linkTo(value: string, evidence: Evidence[], pageOf: PageOf, kind: LinkKind, max: number): Supported<string> | null {
  const url = httpUrl(value);
  if (url === null || url.length > max) return null;
  if (kind === 'media' && !isVideoUrl(url)) return null;
  const quotes = linkQuotes(url, evidence, pageOf, kind);
  return quotes.length > 0 ? { value: url, evidence: quotes } : null;
}

export function social(platform: SocialPlatform, value: string, evidence: Evidence[], pageOf: PageOf, max: number): Supported<string> | null {
  const url = httpUrl(value);
  if (url === null || !linkFitsPlatform(url, platform)) return null;
  return linkTo(url, evidence, pageOf, 'link', max);
}

export function pricingModel(value: string, evidence: Evidence[]): Supported<string> | null {
  const v = cleanText(value);
  const named = Object.keys(PRICING_MODELS).find((k) => k.toLowerCase() === v.toLowerCase());
  if (named !== undefined) {
    return PRICING_MODELS[named]!(quotesOf(evidence).join('\n')) ? { value: named, evidence } : null;
  }
  return v !== '' && textSupported(v, evidence) ? { value: v, evidence } : null;
}

/** A value of a comparison point: free text, a pricing model, a founding year or a country. */
export function comparisonValue(value: string, evidence: Evidence[], now: Date): boolean {
  const v = cleanText(value);
  if (v === '') return false;
  if (textSupported(v, evidence)) return true;
  if (pricingModel(v, evidence) !== null) return true;
  if (/^\d{4}$/.test(v) && foundedYear(v, evidence, now) !== null) return true;
  return /^[A-Za-z]{2}$/.test(v) && country(v, evidence) !== null;
}

/** The category tree's texts, indexed once per check. */
export class CategoryTree {
  readonly index: CategoryIndex;
  private readonly byName = new Map<string, CategoryText>();

  constructor(categories: readonly CategoryText[]) {
    this.index = new CategoryIndex(categories);
    for (const c of categories) this.byName.set(normaliseText(c.name), c);
  }

  of(name: string): CategoryText | undefined {
    return this.byName.get(normaliseText(name));
  }
}

export function category(value: string, evidence: Evidence[], canonical: Map<string, string>, tree: CategoryTree | null = null): string | null {
  const name = canonical.get(normaliseText(value));
  if (name === undefined) return null;
  if (textSupported(name, evidence, LABEL_SUPPORT)) return name;
  const known = tree?.of(name);
  return known !== undefined &&
    tree!.index.supports(
      known,
      evidence.map((e) => e.quote),
    )
    ? name
    : null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const pad = (n: number) => String(n).padStart(2, '0');
const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

export interface StatedDate {
  year: number;
  month: number | null;
  day: number | null;
}

/** The dates a text states, each as precise as it is written: "2021-03-15", "March 15, 2021",
 * "15 March 2021", "March 2021", "2021". */
export function statedDates(text: string): StatedDate[] {
  const out: StatedDate[] = [];
  // Most precise forms first; each match is blanked so "15 March 2021" is not also "March 2021".
  let t = text.normalize('NFKC');
  const take = (pattern: RegExp, read: (m: RegExpExecArray) => StatedDate) => {
    t = t.replace(pattern, (...args) => {
      const match = args.slice(0, -2) as unknown as RegExpExecArray;
      out.push(read(match));
      return ' '.repeat(String(args[0]).length);
    });
  };
  take(/\b(\d{4})-(\d{2})-(\d{2})\b/g, (m) => ({ year: +m[1]!, month: +m[2]!, day: +m[3]! }));
  take(new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'), (m) => ({ year: +m[3]!, month: monthOf(m[1]!), day: +m[2]! }));
  take(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+${MONTH},?\\s+(\\d{4})\\b`, 'gi'), (m) => ({ year: +m[3]!, month: monthOf(m[2]!), day: +m[1]! }));
  take(new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'gi'), (m) => ({ year: +m[2]!, month: monthOf(m[1]!), day: null }));
  take(/\b(1[89]\d{2}|20\d{2}|2100)\b/g, (m) => ({ year: +m[1]!, month: null, day: null }));
  return out;
}

export function isoDate(d: StatedDate): string {
  return `${d.year}-${pad(d.month ?? 1)}-${pad(d.day ?? 1)}`;
}

/** A milestone date YYYY-MM-DD that a quote states: exactly, or as its month (day 01) or year
 * (January 1st) when the quote says no more. */
export function milestoneDate(value: string, evidence: Evidence[]): Supported<string> | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (m === null) return null;
  const [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  const quotes = evidence.filter((e) =>
    statedDates(e.quote).some((s) => {
      if (s.year !== y) return false;
      if (s.month === null) return mo === 1 && d === 1;
      if (s.month !== mo) return false;
      return s.day === null ? d === 1 : s.day === d;
    }),
  );
  return quotes.length > 0 ? { value: value.trim(), evidence: quotes } : null;
}

// Facts about the product itself (rules/): the quote must be in the site's own words and tie
// the value to this product or its company, not to a customer, a partner or a passing mention.

/** founded_year: a year some own-words quote states as this product's founding. */
export function productFoundedYear(value: string, evidence: Evidence[], now: Date, ctx: RuleContext): Supported<string> | null {
  const year = /\b\d{4}\b/.exec(String(value))?.[0];
  if (year === undefined) return null;
  const stated = foundedYear(
    value,
    evidence.filter((e) => ownWords(e, ctx) && quoteStatesFounding(e.quote, year, ctx)),
    now,
  );
  if (stated !== null || String(value).trim() !== year || Number(year) < YEAR_MIN || Number(year) > now.getUTCFullYear()) return stated;
  const declared = evidence.filter((e) => declaredOnly(e, ctx) && declaresFounding(e.quote, year));
  if (declared.length === 0 || shownFoundingYears(ctx).some((y) => y !== year)) return null;
  return { value: year, evidence: declared };
}

/** The founding years the site's own visible words state (where a declared year would be
 * contradicted by the page). */
function shownFoundingYears(ctx: RuleContext): string[] {
  const years = new Set<string>();
  for (const page of ctx.pages ?? []) {
    for (const line of pageModel(page).lines) {
      if (!FOUNDING_WORDS.test(line)) continue;
      for (const year of line.match(/\b(?:1[89]\d{2}|20\d{2})\b/g) ?? []) {
        if (ownWords({ quote: line, url: page.url }, ctx) && quoteStatesFounding(line, year, ctx)) years.add(year);
      }
    }
  }
  return [...years];
}

const placeQuotes = (place: string, evidence: Evidence[], ctx: RuleContext) =>
  evidence.filter((e) => ownWords(e, ctx) && !datedPage(e.url) && statesLocation(e.quote, place, ctx, addressLine(e, ctx)));

/** city: a place some own-words quote states as where the company is. */
export function productCity(value: string, evidence: Evidence[], ctx: RuleContext): Supported<string> | null {
  const city = phrase(value, evidence);
  if (city === null || countryCode(city.value) !== null) return null;
  const stated = phrase(city.value, placeQuotes(city.value, city.evidence, ctx));
  if (stated !== null) return stated;
  const declared = city.evidence.filter((e) => declaredOnly(e, ctx) && declaresCity(e.quote, city.value));
  return declared.length > 0 ? { value: city.value, evidence: declared } : null;
}

/** country: a country some own-words quote states as where the company is. */
export function productCountry(value: string, evidence: Evidence[], ctx: RuleContext): Supported<string> | null {
  const v = value.trim();
  const code = /^[A-Za-z]{2}$/.test(v) ? v.toUpperCase() : countryCode(v);
  const declared = code === null ? [] : evidence.filter((e) => declaredOnly(e, ctx) && declaresCountry(e.quote, code));
  const stated = country(value, evidence);
  if (stated === null) return declared.length > 0 ? { value: code!, evidence: declared } : null;
  const names = countryNames(stated.value) ?? [];
  const quotes = stated.evidence.filter((e) => {
    const q = normaliseText(e.quote);
    return names.some((n) => containsPhrase(q, n) && placeQuotes(n, [e], ctx).length > 0);
  });
  if (quotes.length === 0 && declared.length > 0) return { value: stated.value, evidence: declared };
  return quotes.length > 0 ? { value: stated.value, evidence: quotes } : null;
}

/** stage: a stage of the shared vocabulary that some own-words quote states as current. */
export function productStage(value: string, evidence: Evidence[], ctx: RuleContext): Supported<string> | null {
  const label = stageOf(value);
  if (label === null || normaliseText(label) !== normaliseText(value)) return null;
  const quotes = evidence.filter((e) => ownWords(e, ctx) && !datedPage(e.url) && !linkLabel(e, ctx) && statesCurrentStage(e.quote, label));
  return quotes.length > 0 ? { value: label, evidence: quotes } : null;
}

/** A founder: a clean person name on a line of the site's own words, with a founder or leader
 * role at this product in a quote on the same page within two lines of the name (a team card),
 * or a "founded by" sentence of this product naming them. */
export function productFounder(value: string, evidence: Evidence[], ctx: RuleContext, allowDeclared = false): Supported<string> | null {
  const name = personName(value);
  if (name === null) return null;
  const declared = evidence.filter((e) => declaredOnly(e, ctx) && declaresFounder(e.quote, name));
  const own = evidence.filter((e) => ownWords(e, ctx));
  const norm = normaliseText(name);
  for (const e of own) {
    const page = ctx.pageOf(e.url);
    if (page === undefined || !containsPhrase(normaliseText(e.quote), norm)) continue;
    const model = pageModel(page);
    const nameLines = model.normLines.flatMap((l, i) => (containsPhrase(l, norm) ? [i] : []));
    const near = own.filter((r) => {
      if (r.url !== e.url) return false;
      if (r === e) return true;
      const q = normaliseText(r.quote);
      return model.normLines.some((l, i) => containsPhrase(l, q) && nameLines.some((n) => Math.abs(n - i) <= 2));
    });
    if (
      nameLines.length > 0 &&
      foundedHere(
        name,
        near.map((r) => r.quote),
        ctx,
      )
    )
      return { value: name, evidence: near };
  }
  return allowDeclared && declared.length > 0 ? { value: name, evidence: declared } : null;
}
