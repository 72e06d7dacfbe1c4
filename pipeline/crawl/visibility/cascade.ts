// Each element's cascaded value of the properties visibility depends on: the page's <style>
// blocks (the crawler puts the site's linked stylesheets there too, see stylesheets.ts) and
// style attributes, by importance, specificity and order, the way a browser picks a winner.
import type { AnyNode, CheerioAPI, Element } from 'cheerio';
import { selectAll } from 'css-select';
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
const weight = (important: boolean, spec: [number, number, number], inline: boolean, order: number): Weight =>
  [important ? 1 : 0, inline ? 1 : 0, ...spec, order];
const atLeast = (a: Weight, b: Weight) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
};

export function cascade($: CheerioAPI, root: AnyNode): Cascaded {
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
      let selectors: Selector[][];
      try {
        selectors = parseSelector(rule.selector);
      } catch {
        continue;
      }
      order += 1;
      for (const selector of selectors) {
        let matched: Element[];
        try {
          matched = selectAll(stringify([selector]), root, { pseudos: PSEUDOS, xmlMode: false }) as Element[];
        } catch {
          continue;
        }
        if (matched.length === 0) continue;
        const spec = specificity(selector);
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
