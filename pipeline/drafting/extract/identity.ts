// Name, tagline, descriptions and logo: from JSON-LD, OpenGraph/meta tags, the title and
// headings, each kept only where its words are visible on the site (the quote is that line).
import type { Element } from 'cheerio';
import type { Evidence } from '../../../core/drafts/fields.ts';
import type { Proposed } from '../types.ts';
import { normaliseText, urlKey } from '../normalise.ts';
import { blockLines, fileNameOf, type PageModel } from '../page-model.ts';
import { inThirdPartyBlock, isInstructionLike } from '../rules/index.ts';
import { nodesOf, ORGANIZATION, PRODUCT, textOf } from './json-ld.ts';
import { inChrome, wordCount, type Sources } from './sources.ts';
import { hasPrice } from '../vocabulary.ts';

const TITLE_SEPARATOR = /\s+[|–—·•:-]\s+|:\s+/;

function titleSegments(model: PageModel | undefined): string[] {
  const title = model?.page.title ?? model?.meta.get('og:title') ?? '';
  return title
    .split(TITLE_SEPARATOR)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function firstHeading(model: PageModel | undefined): string | null {
  if (model === undefined) return null;
  const h1 = model.$('h1').first();
  return h1.length > 0 ? blockLines(h1[0]!).join(' ') || null : null;
}

// Services that host other people's pages and put their own name in the page's metadata and
// chrome (og:site_name "GitHub" on a repository page).
const HOSTS: Record<string, string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
  notion: 'notion.so',
  medium: 'medium.com',
  substack: 'substack.com',
  'product hunt': 'producthunt.com',
  'hacker news': 'ycombinator.com',
  'itch.io': 'itch.io',
};

/** A name that is the hosting service's, on a page that links to that service itself. */
function hostingPlatform(name: string, model: PageModel | undefined): boolean {
  const host = HOSTS[normaliseText(name)];
  if (host === undefined || model === undefined) return false;
  return model.links.some((l) => {
    try {
      const h = new URL(l.url).hostname.toLowerCase();
      return h === host || h.endsWith(`.${host}`);
    } catch {
      return false;
    }
  });
}

export function extractName(src: Sources): Proposed<string> | null {
  const home = src.home;
  const candidates: string[] = [];
  for (const { node } of nodesOf(src.models, PRODUCT)) candidates.push(textOf(node.name) ?? '');
  for (const { node } of nodesOf(src.models, ORGANIZATION)) candidates.push(textOf(node.name) ?? '');
  for (const key of ['og:site_name', 'application-name', 'apple-mobile-web-app-title']) candidates.push(home?.meta.get(key) ?? '');
  const segments = titleSegments(home);
  if (segments.length > 1) candidates.push(segments[0]!, segments[segments.length - 1]!);
  const h1 = firstHeading(home);
  if (h1 !== null && wordCount(h1) <= 3) candidates.push(h1);
  if (segments.length === 1 && wordCount(segments[0]!) <= 3) candidates.push(segments[0]!);
  const pages = src.ordered('home', 'about');
  for (const candidate of candidates) {
    const name = candidate.trim();
    if (name === '' || name.length > 60 || wordCount(name) > 5 || hostingPlatform(name, home)) continue;
    const evidence = src.findLine(name, pages);
    if (evidence !== null) return { value: name, evidence: [evidence] };
  }
  return null;
}

export function extractTagline(src: Sources, name: string | null): Proposed<string> | null {
  const home = src.home;
  if (home === undefined) return null;
  const isName = (s: string) => name !== null && normaliseText(s) === normaliseText(name);
  const candidates: string[] = [];
  const h1 = firstHeading(home);
  if (h1 !== null) candidates.push(h1);
  candidates.push(...titleSegments(home).filter((s) => !isName(s)));
  for (const key of ['og:description', 'description', 'twitter:description']) candidates.push(home.meta.get(key) ?? '');
  for (const candidate of candidates) {
    const text = candidate.trim();
    if (isName(text) || wordCount(text) < 3 || text.length > 200) continue;
    const evidence = src.findLine(text, [home]);
    if (evidence !== null) return { value: text, evidence: [evidence] };
  }
  return null;
}

// Paragraphs that are not about what the product does: a customer's quote, prices, legal and
// license lines, release notes.
const QUOTED = /^\s*["“„«'‘]|["”»]\s*(?:[—–-]|\p{Lu}\p{L}+\s+\p{Lu}\p{L}+,)/u;
const LEGAL =
  /©|\ball rights reserved\b|\blicen[cs]e[ds]?\b|\bterms of (?:service|use)\b|\bprivacy policy\b|\bregistered (?:in|office)\b|\bcompany (?:number|no\.?)\b|\bimpressum\b|\bhandelsregister\b/i;
const RELEASE_NOTE = /\b(?:version|v)\s?\d+(?:\.\d+)+\b|\bthis release\b|\brelease notes?\b|\bchangelog\b|\bbug ?fix(?:es)?\b|\bfixes a bug\b/i;

/** Whether a paragraph says what the product does, rather than quoting a customer, pricing
 * it, licensing it or noting a release. */
export function describesProduct(text: string): boolean {
  return !QUOTED.test(text) && !hasPrice(text) && !LEGAL.test(text) && !RELEASE_NOTE.test(text);
}

/** Paragraphs of real prose on a page, outside navigation, footers and forms. */
function paragraphs(model: PageModel, minWords: number): { text: string; el: Element }[] {
  const out: { text: string; el: Element }[] = [];
  model.$('p').each((_, el) => {
    if (inChrome(el) || inThirdPartyBlock(el)) return;
    const text = blockLines(el).join(' ');
    if (isInstructionLike(text) || !describesProduct(text)) return;
    if (wordCount(text) >= minWords && text.length <= 1500) out.push({ text, el });
  });
  return out;
}

export function extractShortDescription(src: Sources, tagline: string | null): Proposed<string> | null {
  const home = src.home;
  if (home === undefined) return null;
  const same = (s: string) => tagline !== null && normaliseText(s) === normaliseText(tagline);
  for (const key of ['description', 'og:description', 'twitter:description']) {
    const text = home.meta.get(key)?.trim();
    if (!text || same(text) || wordCount(text) < 5 || text.length > 300) continue;
    const evidence = src.findLine(text, src.ordered('home'));
    if (evidence !== null) return { value: text, evidence: [evidence] };
  }
  const first = paragraphs(home, 8).find((p) => !same(p.text) && p.text.length <= 300);
  return first === undefined ? null : { value: first.text, evidence: [{ quote: first.text, url: home.page.url }] };
}

export function extractDescription(src: Sources, exclude: string[]): Proposed<string> | null {
  const skip = new Set(exclude.map(normaliseText));
  const chosen: Evidence[] = [];
  const fromJsonLd = [...nodesOf(src.models, PRODUCT), ...nodesOf(src.models, ORGANIZATION)]
    .map(({ node }) => textOf(node.description))
    .find((d): d is string => d !== null && src.findLine(d) !== null);
  if (fromJsonLd !== undefined && !skip.has(normaliseText(fromJsonLd))) {
    chosen.push(src.findLine(fromJsonLd)!);
    skip.add(normaliseText(fromJsonLd));
  }
  let total = chosen.reduce((n, e) => n + e.quote.length, 0);
  for (const model of src.ordered('home', 'about').filter((m) => ['home', 'about'].includes(src.kind(m)))) {
    for (const p of paragraphs(model, 12)) {
      if (chosen.length >= 6 || total > 3000) break;
      const key = normaliseText(p.text);
      if (skip.has(key) || [...skip].some((s) => s.includes(key))) continue;
      skip.add(key);
      chosen.push({ quote: p.text, url: model.page.url });
      total += p.text.length;
    }
  }
  if (chosen.length === 0) return null;
  return { value: chosen.map((e) => e.quote).join('\n\n'), evidence: chosen };
}

/** The logo the home page declares, quoted by what names the image itself: its alt text, or
 * else its file name (never a nearby menu line such as "Home"). A social preview card
 * (og:image) is no logo. */
export function extractLogo(src: Sources, _name: Proposed<string> | null): Proposed<string> | null {
  for (const model of src.ordered('home')) {
    for (const logo of model.logos) {
      if (logo.source === 'og') continue;
      const key = urlKey(logo.url);
      const img = model.logos.find((l) => l.el !== null && urlKey(l.url) === key && (l.el.attribs.alt ?? '').trim() !== '');
      const alt = (img?.el?.attribs.alt ?? '').trim();
      const quote = alt !== '' && alt.length <= 200 ? alt : fileNameOf(logo.url);
      if (quote !== null) return { value: logo.url, evidence: [{ quote, url: model.page.url }] };
    }
  }
  return null;
}

// Headings that name a part of any site, not a topic of this product.
const GENERIC_HEADING =
  /^(?:features?|pricing|plans?|faqs?|frequently asked questions|questions|about(?: us)?|contact(?: us)?|(?:our |the |meet the )?team|blog|news|testimonials|customers|home|get started|sign up|log ?in|menu|help|support|resources|company|product|legal|privacy|terms|changelog|careers|partners|press|our story|story|mission|(?:what|why|how|who|when|where|built|made|everything|meet|our|simple|loved|trusted|join|start|try|see|watch|read|learn) .*)$/i;

/** Short headings of the home and product pages (2-4 words, no sentence, no question) and short
 * feature titles, each quoted as the line it is: the topics the site itself names. */
function statedTopics(src: Sources, features: string[], exclude: string[]): Evidence[] {
  const skip = new Set(exclude.map(normaliseText));
  const out: Evidence[] = [];
  const add = (text: string, url: string) => {
    const t = text.trim();
    const key = normaliseText(t);
    const words = wordCount(t);
    if (words < 1 || words > 4 || t.length > 60 || /[.?!:]$/.test(t) || GENERIC_HEADING.test(t) || skip.has(key)) return;
    if (out.some((e) => normaliseText(e.quote) === key) || out.length >= 10) return;
    out.push({ quote: t, url });
  };
  for (const feature of features) {
    const line = src.findLine(feature);
    if (line !== null && normaliseText(line.quote) === normaliseText(feature)) add(feature, line.url);
  }
  for (const model of src.ordered('home', 'other').filter((m) => ['home', 'other'].includes(src.kind(m)))) {
    for (const { el, text, rank } of model.headings) if (rank >= 2 && rank <= 3 && !inThirdPartyBlock(el)) add(text, model.page.url);
  }
  return out;
}

/** Keyword lists from meta keywords (keywords) and JSON-LD keywords (tags), visible terms only;
 * without them, the topics the site's own headings and feature titles name. */
export function extractKeywords(
  src: Sources,
  features: string[] = [],
  exclude: string[] = [],
): { tags: Proposed<string[]> | null; keywords: Proposed<string[]> | null } {
  const collect = (terms: string[]): Proposed<string[]> | null => {
    const value: string[] = [];
    const evidence: Evidence[] = [];
    for (const term of terms.map((t) => t.trim()).filter((t) => t !== '' && t.length <= 60)) {
      if (value.length >= 10 || value.some((v) => normaliseText(v) === normaliseText(term))) continue;
      const line = src.findLine(term);
      if (line === null) continue;
      value.push(term);
      evidence.push(line);
    }
    return value.length > 0 ? { value, evidence } : null;
  };
  const meta = src.home?.meta.get('keywords') ?? '';
  const jsonLd = [...nodesOf(src.models, PRODUCT), ...nodesOf(src.models, ORGANIZATION)].flatMap(({ node }) => {
    const k = node.keywords;
    return Array.isArray(k) ? k.filter((x): x is string => typeof x === 'string') : typeof k === 'string' ? k.split(',') : [];
  });
  const stated = () => {
    const topics = statedTopics(src, features, exclude);
    return topics.length === 0 ? null : { value: topics.map((e) => e.quote), evidence: topics };
  };
  return { keywords: collect(meta.split(',')) ?? stated(), tags: collect(jsonLd) };
}
