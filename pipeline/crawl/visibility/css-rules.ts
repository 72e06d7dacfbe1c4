// The part of a stylesheet that can decide whether text is seen: style rules (inside @media
// queries a desktop browser matches, and @supports/@layer blocks) whose declarations set a
// property that hides, reveals or positions an element. Everything else (colours, fonts,
// animations, pseudo-elements, print styles) is dropped, so a large framework stylesheet
// shrinks to a few rules. Parsed once per distinct text.
import { parse, walk, type CssNode } from 'css-tree';

/** Properties the visibility rules read (hiding.ts). */
export const RELEVANT = new Set([
  'display',
  'visibility',
  'opacity',
  'font-size',
  'text-indent',
  'position',
  'left',
  'top',
  'right',
  'clip',
  'clip-path',
  'width',
  'height',
  'max-height',
  'max-width',
  'overflow',
  'overflow-x',
  'overflow-y',
  'transform',
]);

export interface Declaration {
  property: string;
  value: string;
  important: boolean;
}
export interface StyleRule {
  selector: string;
  declarations: Declaration[];
}

// A desktop browser window: what the site shows a visitor at a usual laptop width.
const VIEWPORT_WIDTH = 1280;

/** Whether a desktop screen matches the @media prelude (lists: any query matching). */
export function mediaApplies(prelude: string): boolean {
  return prelude.split(',').some((query) => {
    const q = query.trim().toLowerCase();
    if (/^not\b/.test(q)) return false;
    if (/\b(print|speech)\b/.test(q) && !/\b(screen|all)\b/.test(q)) return false;
    for (const m of q.matchAll(/\((min|max)-width\s*:\s*([\d.]+)(px|em|rem)?\s*\)/g)) {
      const px = Number(m[2]) * (m[3] === 'em' || m[3] === 'rem' ? 16 : 1);
      if (m[1] === 'min' && px > VIEWPORT_WIDTH) return false;
      if (m[1] === 'max' && px < VIEWPORT_WIDTH) return false;
    }
    if (/\(\s*(hover|pointer)\s*:\s*(none|coarse)\s*\)/.test(q)) return false;
    return true;
  });
}

// Pseudo-elements style generated content, never the element's own text.
const PSEUDO_ELEMENT = /::|:(before|after|first-line|first-letter|placeholder|selection|marker|backdrop)\b/i;

const rawOf = (node: CssNode | null | undefined): string =>
  node && 'value' in node && typeof (node as { value: unknown }).value === 'string' ? (node as { value: string }).value : '';

const cache = new Map<string, StyleRule[]>();
const CACHE_MAX = 64;

export function styleRules(css: string): StyleRule[] {
  const hit = cache.get(css);
  if (hit !== undefined) return hit;
  const rules: StyleRule[] = [];
  let ast: CssNode;
  try {
    ast = parse(css, { parseValue: false, parseAtrulePrelude: false, parseRulePrelude: false, parseCustomProperty: false });
  } catch {
    return rules;
  }
  walk(ast, {
    visit: 'Rule',
    enter(node, item, list) {
      void item;
      void list;
      // Skip rules nested in at-rules a desktop screen does not apply (or that are not conditional groups).
      for (const at of atRuleAncestors(this)) {
        if (at.name.toLowerCase() === 'media' && !mediaApplies(rawOf(at.prelude))) return;
        if (!['media', 'supports', 'layer', 'container'].includes(at.name.toLowerCase())) return;
      }
      if (node.prelude.type !== 'Raw') return;
      const selector = node.prelude.value.trim();
      if (selector === '' || PSEUDO_ELEMENT.test(selector)) return;
      const declarations: Declaration[] = [];
      node.block.children.forEach((d) => {
        if (d.type !== 'Declaration') return;
        const property = d.property.toLowerCase();
        if (!RELEVANT.has(property)) return;
        declarations.push({ property, value: rawOf(d.value).trim().toLowerCase(), important: d.important !== false });
      });
      if (declarations.length > 0) rules.push({ selector, declarations });
    },
  });
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(css, rules);
  return rules;
}

type WalkContext = { atrule?: { name: string; prelude: CssNode | null } | null };

// css-tree's walker exposes only the nearest at-rule; nested ones are rare enough that the
// nearest decides (an @media inside @supports is still checked).
function atRuleAncestors(context: unknown): { name: string; prelude: CssNode | null }[] {
  const at = (context as WalkContext).atrule;
  return at ? [at] : [];
}

/** Declarations of an inline style attribute. */
export function inlineDeclarations(style: string): Declaration[] {
  const out: Declaration[] = [];
  for (const part of style.split(';')) {
    const colon = part.indexOf(':');
    if (colon <= 0) continue;
    const property = part.slice(0, colon).trim().toLowerCase();
    if (!RELEVANT.has(property)) continue;
    let value = part
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    const important = /!\s*important\s*$/.test(value);
    if (important) value = value.replace(/!\s*important\s*$/, '').trim();
    out.push({ property, value, important });
  }
  return out;
}

/** A stylesheet reduced to its relevant rules, as CSS text (what the crawler keeps of a linked sheet). */
export function relevantCss(css: string): string {
  return styleRules(css)
    .map((r) => `${r.selector}{${r.declarations.map((d) => `${d.property}:${d.value}${d.important ? ' !important' : ''}`).join(';')}}`)
    .join('\n');
}
