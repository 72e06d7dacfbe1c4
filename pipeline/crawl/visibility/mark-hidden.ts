// Decides, element by element, what a visitor sees: the hiding attributes, the cascaded style
// (cascade.ts, hiding.ts), screen-reader-only utility classes even when their stylesheet could
// not be read, and panels a visitor opens (accordions, disclosures), which count as seen.
import type { AnyNode, CheerioAPI, Element } from 'cheerio';
import { cascade, type Cascaded } from './cascade.ts';
import { absoluteFontSize, alwaysHidden, openable, startsLine, transformedAway, transparent, visibilityHidden, zeroFont, type Style } from './hiding.ts';

export interface Visibility {
  /** Elements whose whole subtree no visitor sees. */
  hidden: Set<Element>;
  /** Elements whose own text is drawn at font-size 0 (inherited). */
  zeroFont: Set<Element>;
  /** Elements the style lays out as blocks (a line of their own), beyond the block tags. */
  lineStarts: Set<Element>;
}

// Utility classes that mean "for screen readers only" in every framework that has one.
const SCREEN_READER_ONLY =
  /^(sr-only|visually-?hidden|screen-reader-(text|only)|sr-text|element-invisible|a11y-hidden|hidden-visually|u-visually-hidden|is-visually-hidden|offscreen|hide-text|assistive-text)$/i;
// Display utilities; without their stylesheet they count only when no responsive variant shows the element.
const DISPLAY_NONE_CLASS = /^(hidden|d-none|invisible|is-hidden|hide|display-none|u-hidden|w-condition-invisible|w-hidden-main)$/i;
// Entrance animations (Webflow interactions, Framer appear effects, AOS, WOW.js, ...) start
// transparent and are shown by script on load: a visitor sees them, a crawler runs no script.
const ANIMATION_ATTRS = ['data-w-id', 'data-aos', 'data-framer-appear-id', 'data-animate', 'data-animation', 'data-sal', 'data-scroll', 'data-motion'];
const ANIMATION_CLASS = /^(?:wow|aos-.*|animate.*|animated|reveal.*|fade.*|appear.*|motion.*|sal-.*|scroll-reveal|js-reveal|will-animate)$/i;

function animatedIn(el: Element, style: Style): boolean {
  if (ANIMATION_ATTRS.some((a) => a in (el.attribs ?? {})) || classes(el).some((c) => ANIMATION_CLASS.test(c))) return true;
  // Transparent and moved a little at the same time: the start frame of an entrance animation.
  const t = style.get('transform') ?? '';
  return /translate|scale\(0?\.\d|rotate/.test(t) && !transformedAway(style);
}
const RESPONSIVE_SHOW =
  /^(?:(?:sm|md|lg|xl|2xl):(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)|d-(?:sm|md|lg|xl|xxl)-(?!none)\w+|visible-\w+)$/i;

const EMPTY: Style = new Map();

function classes(el: Element): string[] {
  return (el.attribs?.class ?? '').split(/\s+/).filter((c) => c !== '');
}

/** Ids of panels some control opens: aria-controls, Bootstrap's data-(bs-)target, href="#id" toggles. */
function openablePanels($: CheerioAPI): { ids: Set<string>; afterToggles: Set<Element> } {
  const ids = new Set<string>();
  const afterToggles = new Set<Element>();
  $('[aria-controls], [data-bs-target], [data-target], [aria-expanded]').each((_, el) => {
    for (const id of (el.attribs['aria-controls'] ?? '').split(/\s+/)) if (id !== '') ids.add(id);
    for (const target of [el.attribs['data-bs-target'], el.attribs['data-target']]) {
      if (target !== undefined && /^#[\w-]+$/.test(target)) ids.add(target.slice(1));
    }
    if (el.attribs['aria-expanded'] !== undefined) {
      // The panel right after the toggle, or after the heading that wraps it.
      for (let node: Element | null = el, depth = 0; node !== null && depth < 3; node = node.parent as Element | null, depth++) {
        const next = $(node).next()[0];
        if (next !== undefined) {
          afterToggles.add(next);
          break;
        }
      }
    }
  });
  return { ids, afterToggles };
}

/** Hidden by something other than transparency or visibility (which an animation may lift). */
function alwaysHiddenOtherwise(style: Style): boolean {
  const rest = new Map(style);
  rest.delete('opacity');
  rest.delete('visibility');
  return alwaysHidden(rest);
}

export function markHidden($: CheerioAPI, root: AnyNode): Visibility {
  const styles: Cascaded = cascade($, root);
  const panels = openablePanels($);
  const hidden = new Set<Element>();
  const zero = new Set<Element>();
  const lineStarts = new Set<Element>();

  const walk = (node: AnyNode, fontZero: boolean) => {
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') return;
    const el = node as Element;
    // A page that hides its whole body until a script has run ("no-js" fades, anti-flicker
    // snippets) is shown to every visitor with scripts: the body itself is never hidden.
    if (el.name.toLowerCase() === 'body') {
      for (const child of el.children ?? []) walk(child, false);
      return;
    }
    const style = styles.get(el) ?? EMPTY;
    const attrs = el.attribs ?? {};
    const names = classes(el);
    const canOpen = (attrs.id !== undefined && panels.ids.has(attrs.id)) || panels.afterToggles.has(el);
    const hiddenAttr = 'hidden' in attrs && attrs.hidden !== 'until-found';
    const displayClass = !style.has('display') && names.some((c) => DISPLAY_NONE_CLASS.test(c)) && !names.some((c) => RESPONSIVE_SHOW.test(c));
    if (
      (attrs['aria-hidden'] ?? '').toLowerCase() === 'true' ||
      names.some((c) => SCREEN_READER_ONLY.test(c)) ||
      (alwaysHidden(style) && !((transparent(style) || visibilityHidden(style)) && animatedIn(el, style) && !alwaysHiddenOtherwise(style))) ||
      ((hiddenAttr || openable(style) || displayClass) && !canOpen)
    ) {
      hidden.add(el);
      return;
    }
    if (startsLine(style)) lineStarts.add(el);
    const zeroHere = zeroFont(style) || (fontZero && !absoluteFontSize(style));
    if (zeroHere) zero.add(el);
    for (const child of el.children ?? []) walk(child, zeroHere);
  };
  for (const child of (root as Element).children ?? []) walk(child, false);
  return { hidden, zeroFont: zero, lineStarts };
}
