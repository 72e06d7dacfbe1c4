// One parse of a crawled page for the drafters and the evidence check: the head's metadata
// (JSON-LD, meta tags, icons) read first, then the same visible-text pass the crawler ran
// (page-text.ts), after which the DOM holds only what a visitor sees. Links, images and
// embeds are collected from that visible DOM, so a link inside a hidden element never counts.
import { BLOCK, HIDDEN_STYLE, removeHidden, startsLine } from '../crawl/page-text.ts';
import type { AnyNode, CheerioAPI, Element } from 'cheerio';
import type { CrawledPage } from '../crawl/crawl-site.ts';
import { loadHtml, visibleText } from '../crawl/page-text.ts';
import { absoluteHttpUrl, normaliseText, urlKey } from './normalise.ts';
import { holdsPageContent, isThirdPartyBlock } from './rules/attribution.ts';

export type JsonLdNode = Record<string, unknown>;
export type LogoSource = 'jsonld' | 'img' | 'icon' | 'og';

export interface PageModel {
  page: CrawledPage;
  $: CheerioAPI;
  /** JSON-LD nodes: top level, @graph members and arrays flattened. */
  jsonLd: JsonLdNode[];
  /** meta name/property (lower case) to content, first occurrence. */
  meta: Map<string, string>;
  /** Lines of the page's visible text (page.text). */
  lines: string[];
  /** Each line in normal form (normaliseText), same indexes as lines. */
  normLines: string[];
  /** page.text in normal form (normaliseText). */
  norm: string;
  /** Visible headings h1..h6 in document order, with their text and rank. */
  headings: { el: Element; text: string; rank: number }[];
  /** Visible links: absolute URL, its urlKey and the element. */
  links: { url: string; key: string; el: Element }[];
  linkKeys: Set<string>;
  /** Addresses of visible mailto: links, lower case. */
  mailtos: Set<string>;
  /** Visible embeds (iframe, video, source, embed, object): URL and a visible element near it. */
  media: { url: string; key: string; near: Element | null }[];
  mediaKeys: Set<string>;
  /** The page's visible text in its own words (testimonials, reviews, press and partner blocks
   * left out), in normal form. */
  ownNorm: string;
  /** Lines of its address and footer blocks, in normal form. */
  addressLines: Set<string>;
  /** What the page declares as its logo, best first. */
  logos: { url: string; source: LogoSource; el: Element | null }[];
  logoKeys: Set<string>;
  /** The raw text of each JSON-LD block that parsed. */
  jsonLdTexts: string[];
  /** What the page declares for machines rather than shows as text, in normal form: its JSON-LD
   * blocks, the alt texts of its visible images and the file names of its logos. A quote from
   * here is evidence only for the facts such declarations are made for (see evidence.ts). */
  declared: string;
}

const MAX_JSON_LD_CHARS = 200_000;
// The same rules as page-text.ts uses to drop invisible parts; embeds are read before that pass
// removes them (an iframe's own content is not page text, but a visible embed is on the page).
const HIDDEN_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg']);

const cache = new WeakMap<CrawledPage, PageModel>();

export function pageModel(page: CrawledPage): PageModel {
  let model = cache.get(page);
  if (model === undefined) {
    model = build(page);
    cache.set(page, model);
  }
  return model;
}

function isHidden(el: Element): boolean {
  for (let node: AnyNode | null = el; node !== null && node.type === 'tag'; node = node.parent) {
    const element = node as Element;
    if (element.name.toLowerCase() === 'body') return false; // see mark-hidden.ts: the body is never hidden
    if (HIDDEN_TAGS.has(element.name.toLowerCase())) return true;
    const attrs = element.attribs ?? {};
    if ('hidden' in attrs) return true;
    if ((attrs['aria-hidden'] ?? '').toLowerCase() === 'true') return true;
    if (HIDDEN_STYLE.test(attrs.style ?? '')) return true;
  }
  return false;
}

function flattenJsonLd(value: unknown, out: JsonLdNode[]): void {
  if (Array.isArray(value)) {
    for (const item of value) flattenJsonLd(item, out);
  } else if (value !== null && typeof value === 'object') {
    const node = value as JsonLdNode;
    if (Array.isArray(node['@graph'])) flattenJsonLd(node['@graph'], out);
    if ('@type' in node) out.push(node);
  }
}

function build(page: CrawledPage): PageModel {
  const $ = loadHtml(page.html);
  const base = (() => {
    const href = $('base[href]').attr('href');
    return (href && absoluteHttpUrl(href, page.url)) || page.url;
  })();

  const jsonLd: JsonLdNode[] = [];
  const jsonLdTexts: string[] = [];
  $('script[type="application/ld+json" i]').each((_, el) => {
    const raw = $(el).text();
    if (raw.length > MAX_JSON_LD_CHARS) return;
    try {
      flattenJsonLd(JSON.parse(raw), jsonLd);
      jsonLdTexts.push(raw);
    } catch {
      // a broken block is skipped, the rest of the page still counts
    }
  });

  const meta = new Map<string, string>();
  $('meta[content]').each((_, el) => {
    const key = ($(el).attr('property') ?? $(el).attr('name') ?? $(el).attr('itemprop') ?? '').toLowerCase().trim();
    const content = ($(el).attr('content') ?? '').trim();
    if (key !== '' && content !== '' && !meta.has(key)) meta.set(key, content);
  });

  const logos: PageModel['logos'] = [];
  for (const node of jsonLd) {
    const logo = node.logo;
    const href =
      typeof logo === 'string' ? logo : logo !== null && typeof logo === 'object' ? ((logo as JsonLdNode).url ?? (logo as JsonLdNode).contentUrl) : undefined;
    const url = typeof href === 'string' ? absoluteHttpUrl(href, base) : null;
    if (url) logos.push({ url, source: 'jsonld', el: null });
  }
  const icons: string[] = [];
  $('link[rel][href]').each((_, el) => {
    const rel = ($(el).attr('rel') ?? '').toLowerCase().split(/\s+/);
    const url = absoluteHttpUrl($(el).attr('href') ?? '', base);
    if (url === null) return;
    if (rel.includes('apple-touch-icon') || rel.includes('apple-touch-icon-precomposed')) icons.unshift(url);
    else if (rel.includes('icon')) icons.push(url);
  });

  removeHidden($); // hidden by attributes or style: no embed, link or text inside counts
  const media: PageModel['media'] = [];
  $('iframe[src], embed[src], object[data], video[src], video source[src], video[poster]').each((_, el) => {
    if (isHidden(el)) return;
    const attr = el.name === 'object' ? 'data' : el.name === 'video' && !$(el).attr('src') ? 'poster' : 'src';
    if (attr === 'poster') return;
    const url = absoluteHttpUrl($(el).attr(attr) ?? '', base);
    const key = url && urlKey(url);
    if (url && key) media.push({ url, key, near: (el.parent as Element | null) ?? null });
  });

  visibleText($); // from here on, $ holds only what a visitor sees

  const imgLogos: PageModel['logos'] = [];
  $('img[src]').each((_, el) => {
    const attrs = el.attribs;
    const parent = el.parent as Element | null;
    const hint = [attrs.src, attrs.alt, attrs.class, attrs.id, parent?.attribs?.class, parent?.attribs?.id].join(' ');
    if (!/logo|brand/i.test(hint)) return;
    const url = absoluteHttpUrl(attrs.src ?? '', base);
    if (url) imgLogos.push({ url, source: 'img', el });
  });
  logos.push(...imgLogos, ...icons.map((url) => ({ url, source: 'icon' as const, el: null })));
  const og = meta.get('og:image') ?? meta.get('og:image:url');
  const ogUrl = og ? absoluteHttpUrl(og, base) : null;
  if (ogUrl) logos.push({ url: ogUrl, source: 'og', el: null });

  const alts: string[] = [];
  $('img[alt]').each((_, el) => {
    const alt = (el.attribs.alt ?? '').trim();
    if (alt !== '') alts.push(alt);
  });
  const fileNames = logos.map((l) => fileNameOf(l.url)).filter((n): n is string => n !== null);
  const links: PageModel['links'] = [];
  const mailtos = new Set<string>();
  $('a[href]').each((_, el) => {
    const href = ($(el).attr('href') ?? '').trim();
    if (/^mailto:/i.test(href)) {
      const address = safeDecode(href.slice(7).split('?')[0] ?? '')
        .trim()
        .toLowerCase();
      if (address !== '') mailtos.add(address);
      return;
    }
    const url = absoluteHttpUrl(href, base);
    const key = url && urlKey(url);
    if (url && key) links.push({ url, key, el });
  });
  const headings: PageModel['headings'] = [];
  $('h1, h2, h3, h4, h5, h6').each((_, el) => {
    const text = blockLines(el).join(' ');
    if (text !== '') headings.push({ el, text, rank: Number(el.name.slice(1)) });
  });
  const body = $('body')[0] ?? $.root()[0]!;
  const ownNorm = normaliseText(blockLines(body, isThirdPartyBlock).join('\n'));
  const addressLines = new Set<string>();
  $('address, footer, [role="contentinfo" i], [itemprop="address"], [class*="address" i], [class*="footer" i], [id*="footer" i]').each((_, el) => {
    // A theme's classes on the page itself ("page-template-elementor_header_footer",
    // "et_pb_footer_columns4") name no footer: a block holding the page's main content is none.
    if (holdsPageContent(el)) return;
    for (const line of blockLines(el)) addressLines.add(normaliseText(line));
  });
  const lines = (page.text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const normLines = lines.map(normaliseText);
  return {
    page,
    $,
    jsonLd,
    meta,
    lines,
    normLines,
    // Equal to normaliseText(page.text): lines are trimmed and joined by the space \n becomes.
    norm: normLines.filter((l) => l !== '').join(' '),
    headings,
    ownNorm,
    addressLines,
    links,
    linkKeys: new Set(links.map((l) => l.key)),
    mailtos,
    media,
    mediaKeys: new Set(media.map((m) => m.key)),
    logos,
    logoKeys: new Set(logos.map((l) => urlKey(l.url)).filter((k): k is string => k !== null)),
    jsonLdTexts,
    declared: normaliseText([...jsonLdTexts, ...alts, ...fileNames].join('\n')),
  };
}

/** The file name of an image URL ("orbitly-logo.svg"), or null. */
export function fileNameOf(url: string): string | null {
  try {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return /\.[a-z0-9]{2,5}$/i.test(name) ? name : null;
  } catch {
    return null;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// The crawler's own line breaks, so each line is word for word part of page.text.
export const BLOCK_TAGS = BLOCK;

/** The visible lines of one element, split where page-text.ts splits (block elements), so each
 * line is word for word part of page.text. */
export function blockLines(el: AnyNode, skip?: (el: Element) => boolean): string[] {
  const parts: string[] = [];
  const walk = (node: AnyNode) => {
    if (node.type === 'text') {
      parts.push((node as unknown as { data: string }).data);
    } else if (node.type === 'tag') {
      const element = node as Element;
      if (skip?.(element)) {
        parts.push('\n');
        return;
      }
      const block = startsLine(element);
      if (block) parts.push('\n');
      for (const child of element.children) walk(child);
      if (block) parts.push('\n');
    }
  };
  walk(el);
  return parts
    .join('')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '');
}

/** One visible line of text that stands for an element: its own text, or the first line of the
 * nearest ancestor that has a line of its own (not just other links' texts), so an icon-only
 * footer link is quoted by its footer's text and not by the next link's label. */
export function contextLine(model: PageModel, el: AnyNode | null): string | null {
  const $ = model.$;
  let node: AnyNode | null = el;
  for (let depth = 0; node !== null && node.type === 'tag' && depth < 8; depth++, node = node.parent) {
    const name = (node as Element).name.toLowerCase();
    if (name === 'body' || name === 'html') break;
    const lines = blockLines(node);
    if (lines.length === 0) continue;
    const linkTexts =
      depth === 0
        ? new Set<string>()
        : new Set(
            $(node)
              .find('a')
              .toArray()
              .map((a) => blockLines(a).join(' ')),
          );
    const line = lines.find((l) => !linkTexts.has(l));
    if (line !== undefined) return line.length <= 300 ? line : null;
  }
  return null;
}
