// Title and visible text of an HTML page. Anything a visitor does not see (scripts, styles,
// comments, elements hidden by attributes, by the page's stylesheets or by the usual
// visual-hiding techniques, see visibility/) is dropped: hidden text is a classic
// prompt-injection carrier.
import * as cheerio from 'cheerio';
import type { AnyNode, Element } from 'cheerio';
import { markHidden } from './visibility/mark-hidden.ts';

type Loaded = ReturnType<typeof cheerio.load>;

// An icon font's ligature ("schedule", "swap_horiz") shows as a picture, never as its word.
const ICON_LIGATURES = '[class*="material-icons" i], [class*="material-symbols" i]';
const INVISIBLE = `script, style, noscript, template, iframe, object, svg, head, [hidden]:not([hidden="until-found" i]), [aria-hidden="true" i], ${ICON_LIGATURES}`;
export const HIDDEN_STYLE = /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)\s*(!important)?\s*(;|$)/i;
/** Elements that break visible text into lines; the drafters' quote finder splits the same way. */
export const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'button',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'legend',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'option',
  'p',
  'pre',
  'search',
  'section',
  'summary',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

// Elements the page's style lays out as blocks, or menu items set side by side without a space,
// found by the last visibleText pass over them (blockLines in the drafters reads it).
const lineStarts = new WeakSet<Element>();
const MENU = new Set(['nav', 'menu']);
const MENU_ROLES = new Set(['navigation', 'menu', 'menubar', 'tablist']);
const ITEM = new Set(['a', 'button', 'li', 'img']);
const INLINE_TEXT = new Set(['span', 'strong', 'b', 'em', 'i', 'small', 'a', 'label', 'mark', 'sup', 'sub', 'font']);

/** Whether the element's text starts on a line of its own. */
export function startsLine(el: Element): boolean {
  return BLOCK.has(el.name.toLowerCase()) || lineStarts.has(el);
}

function inMenu(el: Element): boolean {
  for (let node = el.parent as Element | null; node !== null && node.type === 'tag'; node = node.parent as Element | null) {
    if (MENU.has(node.name.toLowerCase()) || MENU_ROLES.has((node.attribs?.role ?? '').toLowerCase())) return true;
  }
  return false;
}

/** A link or button glued to the element before it ("ProductFeaturesPricing"): no text between. */
function gluedItem(el: Element): boolean {
  if (!ITEM.has(el.name.toLowerCase())) return false;
  const prev = el.prev;
  return prev !== null && prev.type === 'tag' && ITEM.has((prev as Element).name.toLowerCase());
}

const textOf = (node: AnyNode): string => {
  if (node.type === 'text') return (node as unknown as { data: string }).data;
  return node.type === 'tag' ? (node as Element).children.map(textOf).join('') : '';
};

/** Two inline elements side by side whose words run into each other ("Jane DoeFounder",
 * "$49per month"): a layout would set them apart, so their text does not glue. */
function gluedWords(el: Element): boolean {
  const prev = el.prev;
  if (prev === null || prev.type !== 'tag' || !INLINE_TEXT.has(el.name.toLowerCase()) || !INLINE_TEXT.has((prev as Element).name.toLowerCase())) return false;
  const before = textOf(prev);
  const after = textOf(el);
  if (/\s$/.test(before) || /^\s/.test(after)) return false;
  return (/[\p{L}\p{N}.!?]$/u.test(before) && /^\p{Lu}/u.test(after)) || (/\p{N}$/u.test(before) && /^\p{L}/u.test(after));
}

export function loadHtml(html: string): Loaded {
  return cheerio.load(html);
}

export function pageTitle($: Loaded): string | null {
  const title = $('title').first().text().replace(/\s+/g, ' ').trim();
  return title === '' ? null : title;
}

/** Removes from `$` every element a visitor does not see and every text node drawn at
 * font-size 0, and notes which elements start lines. Leaves <head>, scripts and embeds in
 * place (the drafters read metadata and embeds from them). */
const cleaned = new WeakSet<object>();

export function removeHidden($: Loaded): void {
  const doc = $.root()[0]!;
  if (cleaned.has(doc)) return;
  cleaned.add(doc);
  const root = $('html')[0] ?? $.root()[0]!;
  const seen = markHidden($, root as AnyNode);
  for (const el of seen.hidden) {
    if (['head', 'style', 'script'].includes(el.name.toLowerCase())) continue;
    $(el).remove();
  }
  for (const el of seen.zeroFont) {
    for (const child of [...el.children]) if (child.type === 'text') $(child).remove();
  }
  for (const el of seen.lineStarts) lineStarts.add(el);
  $('a, button').each((_, el) => {
    if (inMenu(el) || gluedItem(el)) lineStarts.add(el);
  });
  $('li, img').each((_, el) => {
    if (gluedItem(el)) lineStarts.add(el);
  });
  $('span, strong, b, em, i, small, label, mark, font').each((_, el) => {
    if (gluedWords(el)) lineStarts.add(el);
  });
}

/** Visible text, one line per block element, whitespace collapsed inside lines. Removes the
 * invisible parts from `$` (head included): read pageTitle first. */
export function visibleText($: Loaded): string {
  removeHidden($);
  $(INVISIBLE).remove();
  $('[style]').each((_, element) => {
    if (!['body', 'html'].includes(element.name.toLowerCase()) && HIDDEN_STYLE.test($(element).attr('style') ?? '')) $(element).remove();
  });
  const root = $('body').length > 0 ? $('body') : $.root();
  const parts: string[] = [];
  const walk = (nodes: ReturnType<Loaded>) => {
    nodes.contents().each((_, node) => {
      if (node.type === 'text') parts.push((node as unknown as { data: string }).data);
      else if (node.type === 'tag') {
        const block = startsLine(node as Element);
        if (block) parts.push('\n');
        walk($(node));
        if (block) parts.push('\n');
      }
      // comments, CDATA and directives are skipped
    });
  };
  walk(root);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
