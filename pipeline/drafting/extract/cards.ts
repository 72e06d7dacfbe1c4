// Repeated structure: sibling elements of one shape (the same tag and class), each a short
// title and its text, as site builders lay out features, selling points, plans, people and
// questions. A group is classified by what its cards hold; each card's title is quoted as the
// visible line it is.
import type { Element } from 'cheerio';
import type { Evidence } from '../../../core/drafts/fields.ts';
import { blockLines, type PageModel } from '../page-model.ts';
import { hasPrice } from '../vocabulary.ts';
import { inThirdPartyBlock, ROLE } from '../rules/index.ts';
import { inChrome, wordCount } from './sources.ts';

export type CardKind = 'features' | 'pricing' | 'people' | 'questions';

export interface CardGroup {
  kind: CardKind;
  /** The heading the group stands under, if any. */
  heading: string | null;
  /** Titles only, no text beside them (a list laid out as blocks): only its heading says what it is. */
  bare: boolean;
  cards: { el: Element; title: Evidence; rest: Evidence[] }[];
}

// An icon font's glyph: a ligature word ("bolt", "schedule") or an empty element styled as an
// icon. Sighted readers see a picture, so its word is no card's title.
const ICON_CLASS =
  /(?:^|\s)(?:material-(?:icons|symbols)[\w-]*|icon|icons|fa|fas|far|fab|fa-solid|fa-regular|bi|glyphicon|ti|lni|ph|iconify|[\w-]*-icon|icon-[\w-]+)(?:\s|$)/i;
const isIconGlyph = (el: Element) => {
  if (!['i', 'span', 'div', 'em'].includes(el.name) || !ICON_CLASS.test(el.attribs?.class ?? '')) return false;
  const text = blockLines(el).join(' ');
  // Or a code point of the Private Use Area, where icon fonts (Divi's, Elegant Icons) put glyphs.
  return text === '' || /^[a-z][a-z0-9_-]*$/.test(text) || /^[\p{Co}\s]+$/u.test(text);
};
const cardLines = (el: Element) => blockLines(el, isIconGlyph);

// A block of text standing in for a heading where a builder styles a div rather than using h2:
// one short line that is not a sentence.
function textHeading(el: Element): string | null {
  if (!['div', 'p', 'span', 'strong', 'b'].includes(el.name)) return null;
  const lines = blockLines(el);
  if (lines.length !== 1) return null;
  const line = lines[0]!;
  return wordCount(line) <= 10 && !/[.!,;:]$/.test(line) ? line : null;
}

// Classes that say where a card sits or how it looks, not what it is.
const LAYOUT_CLASS =
  /^(?:col|w-|is-|has-|active|first|last|odd|even|animate|aos|wow|fade|js-|p[xytblr]?-|m[xytblr]?-|g-|gap|flex|grid|text-|bg-|border|rounded|shadow)/;
const NOT_FEATURES = /\b(?:blog|news|posts?|articles?|latest|stories|events?|jobs|careers|openings)\b/i;

// Classes a builder numbers per element (Divi's et_pb_column_3, et_pb_blurb_0) or per position
// (et-last-child): siblings of one shape differ only in these.
const POSITION_CLASS = /[_-]\d+$|(?:^|-)(?:first|last)-child$/;

const signature = (el: Element) =>
  `${el.name}.${(el.attribs?.class ?? '')
    .split(/\s+/)
    .filter((c) => c !== '' && !LAYOUT_CLASS.test(c) && !POSITION_CLASS.test(c))
    .sort()
    .join('.')}`;

function headingBefore(el: Element): string | null {
  for (let node: Element | null = el, depth = 0; node !== null && node.type === 'tag' && depth < 4; node = node.parent as Element | null, depth++) {
    for (let prev = node.prev; prev !== null; prev = prev.prev) {
      if (prev.type !== 'tag') continue;
      const p = prev as Element;
      if (/^h[1-6]$/.test(p.name)) return blockLines(p).join(' ') || null;
      const inner = findHeading(p);
      if (inner !== null) return inner;
      // Only the block right before the group (depth 1: the group's own container's sibling) may
      // be a styled text heading; deeper up it is just the previous section's last line.
      if (depth <= 1) return textHeading(p);
      break;
    }
  }
  return null;
}

function findHeading(el: Element): string | null {
  for (const child of el.children) {
    if (child.type !== 'tag') continue;
    const c = child as Element;
    if (/^h[1-6]$/.test(c.name)) return blockLines(c).join(' ') || null;
  }
  return null;
}

function kindOf(cards: { title: Evidence; rest: Evidence[] }[]): CardKind {
  const share = (test: (c: { title: Evidence; rest: Evidence[] }) => boolean) => cards.filter(test).length / cards.length;
  if (share((c) => hasPrice(c.title.quote) || c.rest.some((r) => hasPrice(r.quote) && r.quote.length <= 40)) >= 0.5) return 'pricing';
  if (share((c) => c.title.quote.trim().endsWith('?')) >= 0.5) return 'questions';
  if (share((c) => [c.title, ...c.rest.slice(0, 2)].some((l) => ROLE.test(l.quote) && l.quote.length <= 60)) >= 0.5) return 'people';
  return 'features';
}

/** Groups of at least `min` sibling cards of one shape on the page, outside navigation,
 * header, footer and blocks in someone else's words, in document order. */
export function cardGroups(model: PageModel, min = 3, opts: { bare?: boolean } = {}): CardGroup[] {
  const $ = model.$;
  const url = model.page.url;
  const groups: CardGroup[] = [];
  $('body *').each((_, parent) => {
    const children = parent.children.filter((c): c is Element => c.type === 'tag');
    if (children.length < min || inChrome(parent) || inThirdPartyBlock(parent)) return;
    const bySignature = new Map<string, Element[]>();
    for (const child of children) {
      const key = signature(child);
      bySignature.set(key, [...(bySignature.get(key) ?? []), child]);
    }
    for (const members of bySignature.values()) {
      if (members.length < min) continue;
      const cards = members.flatMap((el) => {
        const lines = cardLines(el);
        const title = lines[0];
        if (title === undefined || title.length > 120 || wordCount(title) > 12) return [];
        return [{ el, title: { quote: title, url }, rest: lines.slice(1).map((quote) => ({ quote, url })) }];
      });
      // Cards are titled blocks: most hold text beside the title, and titles differ. Bare titles
      // count only when asked for, under a heading, and when they are not links (a menu).
      if (cards.length < min || new Set(cards.map((c) => c.title.quote.toLowerCase())).size < cards.length) continue;
      const bare = cards.filter((c) => c.rest.length > 0).length < cards.length / 2;
      if (bare && (!opts.bare || cards.some((c) => c.rest.length > 0 || $(c.el).find('a').length > 0))) continue;
      const heading = headingBefore(members[0]!);
      if (heading !== null && NOT_FEATURES.test(heading)) continue;
      if (bare && heading === null) continue;
      groups.push({ kind: bare ? 'features' : kindOf(cards), heading, bare, cards });
    }
  });
  const inside = (inner: CardGroup, outer: CardGroup) =>
    outer !== inner && outer.cards.some((c) => inner.cards.some((ic) => c.el !== ic.el && $(c.el).find(ic.el).length > 0));
  return groups.filter(
    (g) =>
      // Blocks that hold a group of titled cards are sections of the page (a builder's records),
      // not cards: the inner group counts. A bare list inside a card is that card's own bullets.
      !groups.some((inner) => !inner.bare && inside(inner, g)) && !(g.bare && groups.some((outer) => inside(g, outer))),
  );
}
