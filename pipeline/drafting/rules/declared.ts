// Facts a page declares for machines rather than shows: schema.org JSON-LD members, quoted as
// the JSON text itself ('"foundingDate": "2020"'). Such a quote supports only the fact its
// member is made for (a founding date, a locality, a country, a founder), never free text, so
// hidden prose cannot reach a draft this way. The extractors prefer what the page shows and use
// a declaration only where the visible pages state nothing on the matter.
import type { Evidence } from '../../../core/drafts/fields.ts';
import { containsPhrase, normaliseText } from '../normalise.ts';
import { pageModel } from '../page-model.ts';
import { countryCode } from '../countries.ts';
import type { RuleContext } from './context.ts';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The JSON text of a string member `"key": "value"` in the page's JSON-LD blocks (the first
 * whose value passes `accept`), word for word as the block writes it, or null. */
export function jsonMember(texts: string[], key: string, accept: (value: string) => boolean = () => true): string | null {
  const pattern = new RegExp(`"${escapeRegExp(key)}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){1,300})"`, 'g');
  for (const text of texts) {
    for (const m of text.matchAll(pattern)) if (accept(m[1]!)) return m[0];
  }
  return null;
}

/** The JSON text of a member whose value is an object or array (`"founder": {...}`), at most
 * `max` characters, or null. */
export function jsonBlockMember(texts: string[], key: string, max = 400): string | null {
  const pattern = new RegExp(`"${escapeRegExp(key)}"\\s*:\\s*(\\{[^{}]{0,${max}}\\}|\\[[^\\[\\]]{0,${max}}\\])`, 'g');
  for (const text of texts) {
    const m = pattern.exec(text);
    if (m !== null) return m[0];
  }
  return null;
}

/** Whether the quote is declared on its page (JSON-LD, alt text, file name) and not shown. */
export function declaredOnly(e: Evidence, ctx: RuleContext): boolean {
  const page = ctx.pageOf(e.url);
  if (page === undefined) return false;
  const model = pageModel(page);
  const q = normaliseText(e.quote);
  return !containsPhrase(model.norm, q) && model.declared.includes(q);
}

const member = (quote: string, key: string) => new RegExp(`^"${key}"\\s*:\\s*"([^"]*)"$`, 'i').exec(normaliseText(quote))?.[1] ?? null;

/** '"foundingDate": "2020-03-01"' declares the founding year 2020. */
export function declaresFounding(quote: string, year: string): boolean {
  const v = member(quote, 'foundingdate');
  return v !== null && new RegExp(`^${year}\\b`).test(v);
}

/** '"addressLocality": "Dublin"' declares the city. */
export function declaresCity(quote: string, city: string): boolean {
  const v = member(quote, 'addresslocality');
  return v !== null && v === normaliseText(city);
}

/** '"addressCountry": "IE"' (or its name) declares the country. */
export function declaresCountry(quote: string, code: string): boolean {
  const v = member(quote, 'addresscountry');
  if (v === null) return false;
  return (/^[a-z]{2}$/.test(v) ? v.toUpperCase() : countryCode(v)) === code.toUpperCase();
}

/** '"founder": {"@type": "Person", "name": "Jane Doe"}' declares the founder. */
export function declaresFounder(quote: string, name: string): boolean {
  const q = normaliseText(quote);
  return /^"founders?"\s*:/.test(q) && new RegExp(`"name"\\s*:\\s*"${escapeRegExp(normaliseText(name))}"`).test(q);
}
