// The crawled site as the extractive drafter reads it: parsed pages in crawl order (the
// submitted page first), what kind of page each is, and ways to turn what it finds into
// quotes of visible text.
import type { AnyNode, Cheerio, Element } from 'cheerio';
import type { CrawledPage } from '../../crawl/crawl-site.ts';
import type { Evidence } from '../../../core/drafts/fields.ts';
import { containsPhrase, normaliseText, sentences } from '../normalise.ts';
import { blockLines, contextLine, pageModel, type PageModel } from '../page-model.ts';

export type PageKind = 'home' | 'about' | 'team' | 'pricing' | 'faq' | 'contact' | 'blog' | 'other';

// Blog first: "/blog/new-pricing" is a post, not the pricing page.
const KIND_PATTERNS: [PageKind, RegExp][] = [
  ['blog', /blog|news|changelog|press/],
  ['pricing', /pric|plans?\b|tarif|preise/],
  ['faq', /faq|frequently|questions|help/],
  ['team', /team|people|founders?|leadership/],
  ['about', /about|company|story|mission|who-we-are/],
  ['contact', /contact|imprint|impressum|legal/],
];

const HEADINGS = 'h1, h2, h3, h4, h5, h6';
const MAX_QUOTE_LINE = 400;

export const wordCount = (s: string) => s.split(/\s+/).filter((w) => w !== '').length;
export const headingRank = (el: Element) => Number(el.name.slice(1));

function kindOf(model: PageModel, isHome: boolean): PageKind {
  if (isHome) return 'home';
  const path = new URL(model.page.url).pathname.toLowerCase();
  if (path === '/' || path === '') return 'home';
  const title = (model.page.title ?? '').toLowerCase();
  for (const [kind, pattern] of KIND_PATTERNS) if (pattern.test(path)) return kind;
  for (const [kind, pattern] of KIND_PATTERNS) if (pattern.test(title)) return kind;
  return 'other';
}

export class Sources {
  readonly models: PageModel[];
  readonly home: PageModel | undefined;

  constructor(pages: CrawledPage[]) {
    this.models = pages.map(pageModel);
    this.home = this.models[0];
  }

  private readonly kinds = new Map<PageModel, PageKind>();

  kind(model: PageModel): PageKind {
    let kind = this.kinds.get(model);
    if (kind === undefined) {
      kind = kindOf(model, model === this.home);
      this.kinds.set(model, kind);
    }
    return kind;
  }

  /** Pages of the given kinds first (in the order given), then the rest in crawl order. */
  ordered(...kinds: PageKind[]): PageModel[] {
    const rank = (m: PageModel) => {
      const at = kinds.indexOf(this.kind(m));
      return at === -1 ? kinds.length : at;
    };
    return [...this.models].sort((a, b) => rank(a) - rank(b));
  }

  /** A visible line stating the phrase: the shortest such line of the first page that has
   * one, cut to the sentence holding the phrase when the line is long. */
  findLine(text: string, pages: PageModel[] = this.models): Evidence | null {
    const needle = normaliseText(text);
    if (needle === '') return null;
    for (const model of pages) {
      if (!containsPhrase(model.norm, needle)) continue;
      let best: string | null = null;
      for (let i = 0; i < model.lines.length; i++) {
        const line = model.lines[i]!;
        if (!containsPhrase(model.normLines[i]!, needle)) continue;
        const candidate = line.length <= MAX_QUOTE_LINE ? line : (sentences(line).find((s) => containsPhrase(normaliseText(s), needle)) ?? null);
        if (candidate !== null && (best === null || candidate.length < best.length)) best = candidate;
      }
      // The phrase may span lines (a heading and its paragraph): quote the phrase itself.
      return { quote: best ?? text.replace(/\s+/g, ' ').trim(), url: model.page.url };
    }
    return null;
  }

  /** The element's visible text as one quote, or null when it has none or is too long. */
  quote(model: PageModel, el: AnyNode, max = 1500): Evidence | null {
    const text = blockLines(el).join(' ');
    return text === '' || text.length > max ? null : { quote: text, url: model.page.url };
  }

  /** Each visible line of the element as a quote. */
  lineQuotes(model: PageModel, el: AnyNode): Evidence[] {
    return blockLines(el)
      .filter((l) => l.length <= 1500)
      .map((quote) => ({ quote, url: model.page.url }));
  }

  /** A quote standing for an element without text of its own (an icon link, an embed). */
  nearQuote(model: PageModel, el: AnyNode | null): Evidence | null {
    const line = contextLine(model, el) ?? this.precedingHeading(model, el) ?? model.lines[0] ?? null;
    return line === null ? null : { quote: line, url: model.page.url };
  }

  private precedingHeading(model: PageModel, el: AnyNode | null): string | null {
    if (el === null) return null;
    const $ = model.$;
    for (let node: Cheerio<AnyNode> = $(el); node.length > 0 && !node.is('body'); node = node.parent()) {
      const heading = node.prevAll(HEADINGS).first();
      if (heading.length > 0) return blockLines(heading[0]!)[0] ?? null;
    }
    return null;
  }

  /** Headings whose text matches, with the page they are on. */
  headings(pattern: RegExp, pages: PageModel[] = this.models): { model: PageModel; el: Element; text: string }[] {
    const out: { model: PageModel; el: Element; text: string }[] = [];
    for (const model of pages) {
      for (const { el, text } of model.headings) {
        if (text.length <= 120 && pattern.test(text)) out.push({ model, el, text });
      }
    }
    return out;
  }

  /** The elements of a heading's section: its following siblings up to the next heading of the
   * same or a higher rank; when the heading sits in a small wrapper, the wrapper's following
   * siblings up to the next such heading, and so on up while none has been found. */
  section(model: PageModel, heading: Element): Element[] {
    const $ = model.$;
    const rank = headingRank(heading);
    const out: Element[] = [];
    const collect = (start: Cheerio<Element>) => {
      for (let node = start.next(); node.length > 0; node = node.next()) {
        if (holdsHeading(node[0]!, rank)) return true;
        out.push(node[0]!);
      }
      return false;
    };
    let node = $(heading) as Cheerio<Element>;
    let stopped = collect(node);
    // Site builders wrap a heading in several levels (Elementor: widget > container > h2), its
    // content a sibling of the outermost: past the first wrapper, climb only while none is found.
    for (let level = 0; !stopped && level < WRAPPER_LEVELS && (level === 0 || out.length === 0); level++) {
      const parent = node.parent();
      if (parent.length === 0 || parent.is('body, main, section, article, html') || parent.children().length > 3) break;
      node = parent as Cheerio<Element>;
      stopped = collect(node);
    }
    return out;
  }

  /** The visible lines of a section, with the page each is on. */
  sectionLines(model: PageModel, heading: Element): Evidence[] {
    return this.section(model, heading).flatMap((el) => this.lineQuotes(model, el));
  }
}

const isHeadingTag = (name: string) => /^h[1-6]$/.test(name);
/** How many wrappers a section's heading may sit in, alone, before its content. */
const WRAPPER_LEVELS = 4;

/** Whether the element is, or contains, a heading of the given rank or a higher one. (A tree
 * walk: compiling a selector for every sibling costs more than the whole extraction.) */
export function holdsHeading(el: Element, rank: number): boolean {
  const name = el.name.toLowerCase();
  if (isHeadingTag(name)) return Number(name.slice(1)) <= rank;
  return el.children.some((child) => child.type === 'tag' && holdsHeading(child as Element, rank));
}

/** Whether an ancestor (or the element itself) passes the test. */
export function hasAncestor(el: AnyNode, test: (el: Element) => boolean): boolean {
  for (let node: AnyNode | null = el; node !== null && node.type === 'tag'; node = node.parent) {
    if (test(node as Element)) return true;
  }
  return false;
}

const CHROME_TAGS = new Set(['nav', 'footer', 'header', 'form', 'button']);
const CHROME_ROLES = new Set(['navigation', 'contentinfo', 'banner']);

/** Inside site chrome: navigation, header, footer, forms and buttons. */
export const inChrome = (el: AnyNode) =>
  hasAncestor(el, (e) => CHROME_TAGS.has(e.name.toLowerCase()) || CHROME_ROLES.has((e.attribs?.role ?? '').toLowerCase()));
