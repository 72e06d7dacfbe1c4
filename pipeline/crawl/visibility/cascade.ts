// Each element's cascaded value of the properties visibility depends on: the page's <style>
// blocks (the crawler puts the site's linked stylesheets there too, see stylesheets.ts) and
// style attributes, by importance, specificity and order, the way a browser picks a winner.
import type { AnyNode, CheerioAPI, Element } from 'cheerio';
import { compile, selectAll } from 'css-select';
import { parse as parseSelector, stringify, type Selector } from 'css-what';
import { inlineDeclarations, styleRules, type Declaration } from './css-rules.ts';

export type Cascaded = Map<Element, Map<string, string>>;

// Interaction states match nothing: the crawler sees the page as loaded, untouched.
const never = () => false;
const PSEUDOS = { hover: never, focus: never, 'focus-within': never, 'focus-visible': never, active: never, target: never, visited: never };

/** [ids, classes/attributes/pseudo-classes, types] of one selector. */
export function specificity(selector: Selector[]): [number, number, number] {
  const s: [number, number, number] = [0, 0, 0];
  for (const token of selector) {
    if (token.type === 'attribute') {
      if (token.name === 'id' && token.action === 'equals') s[0] += 1;
      else s[1] += 1;
    } else if (token.type === 'pseudo') {
      if (Array.isArray(token.data)) {
        if (token.name === 'where') continue;
        // :not/:is/:has count as their most specific argument.
        const best = token.data.map(specificity).sort((a, b) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2])[0];
        if (best) for (let i = 0; i < 3; i++) s[i]! += best[i]!;
      } else s[1] += 1;
    } else if (token.type === 'tag') s[2] += 1;
  }
  return s;
}

type Weight = number[];
const weight = (important: boolean, spec: [number, number, number], inline: boolean, order: number): Weight => [
  important ? 1 : 0,
  inline ? 1 : 0,
  ...spec,
  order,
];
const atLeast = (a: Weight, b: Weight) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
};

/** The document's elements by class, id and tag name, so a rule is tested only against the
 * elements its subject could be (framework stylesheets hold thousands of rules for classes a
 * page never uses). */
interface ElementIndex {
  classes: Map<string, Element[]>;
  ids: Map<string, Element[]>;
  tags: Map<string, Element[]>;
}

function indexOf($: CheerioAPI): ElementIndex {
  const index: ElementIndex = { classes: new Map(), ids: new Map(), tags: new Map() };
  const add = (map: Map<string, Element[]>, key: string, el: Element) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [el]);
    else list.push(el);
  };
  $('*').each((_, node) => {
    const el = node as Element;
    add(index.tags, el.name.toLowerCase(), el);
    if (el.attribs.id) add(index.ids, el.attribs.id, el);
    for (const c of new Set((el.attribs.class ?? '').split(/\s+/))) if (c !== '') add(index.classes, c, el);
  });
  return index;
}

const COMBINATORS = new Set(['child', 'descendant', 'sibling', 'adjacent', 'parent', 'column-combinator']);

/** The elements the selector's subject (its last compound) may be, or null when it names no
 * class, id or tag (then every element is tried). */
function candidates(selector: Selector[], index: ElementIndex): Element[] | null {
  let start = selector.length;
  while (start > 0 && !COMBINATORS.has(selector[start - 1]!.type)) start--;
  let best: Element[] | null = null;
  for (const token of selector.slice(start)) {
    let list: Element[] | undefined;
    if (token.type === 'tag') list = index.tags.get(token.name.toLowerCase()) ?? [];
    else if (token.type === 'attribute' && token.name === 'class' && token.action === 'element') list = index.classes.get(token.value) ?? [];
    else if (token.type === 'attribute' && token.name === 'id' && token.action === 'equals') list = index.ids.get(token.value) ?? [];
    if (list !== undefined && (best === null || list.length < best.length)) best = list;
  }
  return best;
}

const compiled = new Map<string, ((el: Element) => boolean) | null>();
const parsed = new Map<string, { selector: Selector[]; source: string; spec: [number, number, number] }[] | null>();

/** A rule's selector list, parsed once: each selector with its text and specificity. */
function selectorsOf(list: string): { selector: Selector[]; source: string; spec: [number, number, number] }[] | null {
  if (parsed.has(list)) return parsed.get(list)!;
  let out: { selector: Selector[]; source: string; spec: [number, number, number] }[] | null;
  try {
    out = parseSelector(list).map((selector) => ({ selector, source: stringify([selector]), spec: specificity(selector) }));
  } catch {
    out = null;
  }
  if (parsed.size > 20_000) parsed.clear();
  parsed.set(list, out);
  return out;
}

function matcher(selector: string): ((el: Element) => boolean) | null {
  if (compiled.has(selector)) return compiled.get(selector)!;
  let test: ((el: Element) => boolean) | null;
  try {
    test = compile(selector, { pseudos: PSEUDOS, xmlMode: false }) as unknown as (el: Element) => boolean;
  } catch {
    test = null;
  }
  if (compiled.size > 20_000) compiled.clear();
  compiled.set(selector, test);
  return test;
}

export function cascade($: CheerioAPI, root: AnyNode): Cascaded {
  let index: ElementIndex | null = null;
  const winners = new Map<Element, Map<string, { value: string; weight: Weight }>>();
  const apply = (el: Element, d: Declaration, w: Weight) => {
    let props = winners.get(el);
    if (props === undefined) winners.set(el, (props = new Map()));
    const current = props.get(d.property);
    if (current === undefined || atLeast(w, current.weight)) props.set(d.property, { value: d.value, weight: w });
  };
  let order = 0;
  $('style').each((_, styleEl) => {
    const media = $(styleEl).attr('media');
    if (media !== undefined && /\bprint\b/i.test(media) && !/\b(screen|all)\b/i.test(media)) return;
    for (const rule of styleRules($(styleEl).text())) {
      const selectors = selectorsOf(rule.selector);
      if (selectors === null) continue;
      order += 1;
      for (const { selector, source, spec } of selectors) {
        index ??= indexOf($);
        const pool = candidates(selector, index);
        if (pool !== null && pool.length === 0) continue;
        let matched: Element[];
        try {
          if (pool === null) matched = selectAll(source, root, { pseudos: PSEUDOS, xmlMode: false }) as Element[];
          else {
            const test = matcher(source);
            if (test === null) continue;
            matched = pool.filter((el) => test(el));
          }
        } catch {
          continue;
        }
        if (matched.length === 0) continue;
        for (const d of rule.declarations) {
          const w = weight(d.important, spec, false, order);
          for (const el of matched) apply(el, d, w);
        }
      }
    }
  });
  $('[style]').each((_, el) => {
    for (const d of inlineDeclarations(el.attribs.style ?? '')) apply(el, d, weight(d.important, [0, 0, 0], true, ++order));
  });
  const out: Cascaded = new Map();
  for (const [el, props] of winners) out.set(el, new Map([...props].map(([k, v]) => [k, v.value])));
  return out;
}
