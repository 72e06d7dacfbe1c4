// A small writer for the site's XML (sitemaps, Atom feeds): elements are built as values, every
// text and attribute value goes through escapeMarkup, so no caller writes markup by hand.

import { escapeMarkup } from '../escape.ts';

// Not exported: an element can only come from el(), so its markup is always escaped.
class Written {
  constructor(readonly markup: string) {}
}
export type XmlElement = Written;

type Child = XmlElement | string | null | undefined | false;

/** One element; null/undefined/false children and attributes are left out; children are joined by `sep`. */
export function el(name: string, attrs: Record<string, string | undefined> | null, children: Child[] = [], sep = ''): XmlElement {
  let open = name;
  for (const [k, v] of Object.entries(attrs ?? {})) if (v !== undefined) open += ` ${k}="${escapeMarkup(v)}"`;
  const inner = children
    .filter((c): c is XmlElement | string => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Written ? c.markup : escapeMarkup(c)))
    .join(sep);
  if (!inner && !children.length) return new Written(`<${open}/>`);
  return new Written(`<${open}>${sep}${inner}${sep}</${name}>`);
}

/** A whole XML document: the declaration, then the root element. */
export const xmlDocument = (root: XmlElement, encoding = 'UTF-8') => `<?xml version="1.0" encoding="${encoding}"?>\n${root.markup}\n`;
