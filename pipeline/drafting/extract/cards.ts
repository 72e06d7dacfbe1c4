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
  cards: { el: Element; title: Evidence; rest: Evidence[] }[];
}

// Classes that say where a card sits or how it looks, not what it is.
const LAYOUT_CLASS =
  /^(?:col|w-|is-|has-|active|first|last|odd|even|animate|aos|wow|fade|js-|p[xytblr]?-|m[xytblr]?-|g-|gap|flex|grid|text-|bg-|border|rounded|shadow)/;
const NOT_FEATURES = /\b(?:blog|news|posts?|articles?|latest|stories|events?|jobs|careers|openings)\b/i;

const signature = (el: Element) =>
  `${el.name}.${(el.attribs?.class ?? '')
    .split(/\s+/)
    .filter((c) => c !== '' && !LAYOUT_CLASS.test(c))
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
export function cardGroups(model: PageModel, min = 3): CardGroup[] {
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
        const lines = blockLines(el);
        const title = lines[0];
        if (title === undefined || title.length > 120 || wordCount(title) > 12) return [];
        return [{ el, title: { quote: title, url }, rest: lines.slice(1).map((quote) => ({ quote, url })) }];
      });
      // Cards are titled blocks: most hold text beside the title, and titles differ.
      if (cards.length < min || cards.filter((c) => c.rest.length > 0).length < cards.length / 2) continue;
      if (new Set(cards.map((c) => c.title.quote.toLowerCase())).size < cards.length) continue;
      const heading = headingBefore(members[0]!);
      if (heading !== null && NOT_FEATURES.test(heading)) continue;
      groups.push({ kind: kindOf(cards), heading, cards });
    }
  });
  // A card list nested in another (a card's own bullet list) counts once: the outer group.
  return groups.filter((g) => !groups.some((o) => o !== g && o.cards.some((c) => g.cards.some((gc) => c.el !== gc.el && $(c.el).find(gc.el).length > 0))));
}
